import type { DataSource } from 'typeorm';
import { FreeCorpusEntry } from '../../shared/db/entities';
import { PROFILES } from '../../shared/profiles';

/** Public aggregate evidence of the consented free corpus: counts only, never text or callers. */
export interface CorpusEvidence {
  generated_at: string;
  scope: string;
  total_entries: number;
  entries_without_profile: number;
  /** Every profile, in the fixed order, with its count (zero included). */
  per_profile: Array<{ profile: string; entries: number }>;
  privacy: string;
}

/**
 * Aggregates the free corpus.
 * @param dataSource - initialized DataSource
 * @returns counts per profile and overall
 */
export async function readCorpusEvidence(dataSource: DataSource): Promise<CorpusEvidence> {
  const repo = dataSource.getRepository(FreeCorpusEntry);
  const rows = await repo
    .createQueryBuilder('e')
    .select('e.profile', 'profile')
    .addSelect('COUNT(*)::int', 'entries')
    .groupBy('e.profile')
    .getRawMany<{ profile: string | null; entries: number }>();
  const counts = new Map(rows.map((r) => [r.profile, r.entries]));
  const total = rows.reduce((sum, r) => sum + r.entries, 0);
  return {
    generated_at: new Date().toISOString(),
    scope: 'Replies submitted to the free tier (POST /api/score) with data_consent: true. Paid sessions never enter this corpus.',
    total_entries: total,
    entries_without_profile: counts.get(null) ?? 0,
    per_profile: PROFILES.map((p) => ({ profile: p.id, entries: counts.get(p.id) ?? 0 })),
    privacy: 'Aggregate counts only: no submitted text, caller hashes or client addresses are published.',
  };
}
