import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/**
 * Coaching certificate ids start with this; they share the public certificate address
 * (`GET /api/certificate/{id}`) with session certificates, addressed by transaction hash. The
 * hyphen is neither hex after `0x` nor base58, so no transaction hash ever looks like one.
 */
export const COACHING_CERTIFICATE_PREFIX = 'coaching-';

const CERTIFICATE_ID = /^coaching-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One drill on a certificate: its public facts and the best score that cleared it. */
export interface CertifiedDrill {
  drill_id: string;
  title: string;
  target_profile: string;
  bar: number;
  best_score: number;
}

/**
 * What a coaching certificate shows, frozen when it was earned. Public by construction: a masked
 * wallet, the pack, the bars and best scores; never a secret, a full wallet or submitted text.
 */
export interface CoachingCertificateRecord {
  certificate_id: string;
  pack_id: string;
  pack_name: string;
  /** First 6 and last 4 characters of the enrolled wallet. */
  wallet: string;
  drills: CertifiedDrill[];
  /** Mean of the drills' best scores, one decimal. */
  average_score: number;
  average_bar: number;
  /** Counted attempts used when the certificate was earned. */
  attempts_used: number;
  certified_at: string;
}

/**
 * A new coaching certificate id.
 * @returns `coaching-<uuid>`
 */
export function newCoachingCertificateId(): string {
  return `${COACHING_CERTIFICATE_PREFIX}${randomUUID()}`;
}

/**
 * Whether an id is a coaching certificate's (else it may be a transaction hash).
 * @param id - the path segment
 * @returns true for `coaching-<uuid>` (lowercase)
 */
export function isCoachingCertificateId(id: string): boolean {
  return CERTIFICATE_ID.test(id);
}

/**
 * A coaching certificate by id.
 * @param db - DataSource
 * @param certificateId - `coaching-<uuid>`
 * @returns the certificate, or undefined (unknown, malformed, or not earned)
 */
export async function findCoachingCertificate(db: Queryable, certificateId: string): Promise<CoachingCertificateRecord | undefined> {
  if (!isCoachingCertificateId(certificateId)) return undefined;
  const rows = (await db.query(`SELECT certificate FROM coaching_enrollments WHERE certificate_id = $1 AND certificate IS NOT NULL`, [certificateId])) as Array<{
    certificate: CoachingCertificateRecord;
  }>;
  return rows[0]?.certificate;
}
