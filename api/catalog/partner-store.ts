import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { InstallKind, Offering } from '../../shared/catalog/offerings';
import { AppError, ValidationError } from '../../shared/errors';
import { createSecretBox, type SecretBox } from '../../shared/secrets/secret-box';
import { OWN_OFFERING_IDS } from './catalog-match.schema';

/** The purpose a partner signing secret's sealing key is derived for. */
const SEALING_PURPOSE = 'catalog-partner-signing-secret';

/** A listed partner, without its secret. */
export interface Partner {
  partner_id: string;
  name: string;
  summary: string;
  url: string;
  install_kind: InstallKind;
  job_slugs: string[];
  created_at: string;
}

/** What an operator sends to list a partner. */
export interface PartnerInput {
  partner_id: string;
  name: string;
  summary: string;
  url: string;
  install_kind: InstallKind;
  job_slugs: string[];
}

interface Row {
  id: string;
  name: string;
  summary: string;
  url: string;
  install_kind: InstallKind;
  job_slugs: string[];
  created_at: Date;
}

const COLUMNS = 'id, name, summary, url, install_kind, job_slugs, created_at';

const present = (r: Row): Partner => ({
  partner_id: r.id,
  name: r.name,
  summary: r.summary,
  url: r.url,
  install_kind: r.install_kind,
  job_slugs: r.job_slugs,
  created_at: r.created_at.toISOString(),
});

/**
 * The box partner signing secrets are sealed in, its key derived from the server secret.
 * @param serverSecret - CALLER_HASH_KEY
 * @returns the box
 */
export function partnerSecretBox(serverSecret: string): SecretBox {
  return createSecretBox(serverSecret, SEALING_PURPOSE);
}

/**
 * A partner as an offering.
 * @param p - the partner
 * @returns its offering (kind `partner`)
 */
export function partnerOffering(p: Partner): Offering {
  return { id: p.partner_id, name: p.name, kind: 'partner', install_kind: p.install_kind, summary: p.summary, url: p.url };
}

/**
 * Lists a partner with a fresh Standard Webhooks signing secret (`whsec_` and 32 random bytes in
 * base64), sealed before it is stored; the plaintext is returned once, here.
 * @param ds - DataSource
 * @param box - from {@link partnerSecretBox}
 * @param input - the validated body
 * @param createdBy - the operator credential's id
 * @returns the partner and its secret
 * @throws ValidationError naming /partner_id when it is one of this service's offering ids
 * @throws AppError 409 partner_exists
 */
export async function createPartner(ds: DataSource, box: SecretBox, input: PartnerInput, createdBy: string | undefined): Promise<{ partner: Partner; signingSecret: string }> {
  if (OWN_OFFERING_IDS.has(input.partner_id)) {
    throw new ValidationError([{ path: '/partner_id', rule: 'not', message: "must not be one of this service's offering ids" }]);
  }
  const signingSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const rows = (await ds.query(
    `INSERT INTO catalog_partners (id, name, summary, url, install_kind, job_slugs, signing_secret_sealed, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
    [input.partner_id, input.name.trim(), input.summary.trim(), input.url, input.install_kind, input.job_slugs, box.seal(signingSecret, input.partner_id), createdBy ?? null],
  )) as Row[];
  if (!rows[0]) throw new AppError(409, 'partner_exists', 'A partner with this id is already listed.', { details: { partner_id: input.partner_id } });
  return { partner: present(rows[0]), signingSecret };
}

/**
 * Every listed partner, oldest first.
 * @param ds - DataSource
 * @returns the partners, without secrets
 */
export async function listPartners(ds: DataSource): Promise<Partner[]> {
  return ((await ds.query(`SELECT ${COLUMNS} FROM catalog_partners ORDER BY created_at, id`)) as Row[]).map(present);
}

/**
 * The partners listed for one job, oldest first.
 * @param ds - DataSource
 * @param jobSlug - the job
 * @returns the partners
 */
export async function partnersForJob(ds: DataSource, jobSlug: string): Promise<Partner[]> {
  return ((await ds.query(`SELECT ${COLUMNS} FROM catalog_partners WHERE $1 = ANY(job_slugs) ORDER BY created_at, id`, [jobSlug])) as Row[]).map(present);
}

/**
 * A partner's signing secret, unsealed for verifying one signature.
 * @param ds - DataSource
 * @param box - from {@link partnerSecretBox}
 * @param partnerId - the partner
 * @returns the secret, or undefined when no such partner is listed
 * @throws Error when the sealed value does not open (altered, or the server secret changed)
 */
export async function partnerSigningSecret(ds: DataSource, box: SecretBox, partnerId: string): Promise<string | undefined> {
  const rows = (await ds.query(`SELECT signing_secret_sealed FROM catalog_partners WHERE id = $1`, [partnerId])) as Array<{ signing_secret_sealed: string }>;
  if (!rows[0]) return undefined;
  const secret = box.open(rows[0].signing_secret_sealed, partnerId);
  // A listed partner whose secret does not open is the server's fault (its secret changed), not the caller's.
  if (secret === undefined) throw new Error(`the signing secret of partner ${partnerId} does not open: CALLER_HASH_KEY changed since it was listed`);
  return secret;
}
