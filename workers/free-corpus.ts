import type { DataSource } from 'typeorm';
import type { ScoreTextPayload } from '../jobs';
import { FreeCorpusEntry } from '../shared/db/entities';
import type { ScoreResult } from '../shared/scoring/result-types';

/**
 * Adds a consented free-tier reply and its score to the free corpus. Idempotent per job: a job
 * retried after a crash finds its row already there and adds nothing.
 * @param dataSource - initialized DataSource
 * @param jobId - the scoring job's id
 * @param payload - the job's payload (its `freeCorpus` names the caller hash)
 * @param score - the engine's result
 * @returns true when a row was added
 */
export async function recordFreeCorpusEntry(
  dataSource: DataSource,
  jobId: string,
  payload: ScoreTextPayload & { freeCorpus: { callerHash: string } },
  score: ScoreResult,
): Promise<boolean> {
  const result = await dataSource
    .createQueryBuilder()
    .insert()
    .into(FreeCorpusEntry)
    .values({
      jobId,
      callerHash: payload.freeCorpus.callerHash,
      profile: payload.profile ?? null,
      text: payload.text,
      responseDelaySeconds: payload.delaySeconds ?? null,
      eqScore: score.result?.eq_score ?? null,
      humanLikeness: score.human_likeness,
      passed: score.result?.passed ?? null,
      scorerVersion: score.scorer_version,
    })
    .orIgnore()
    .returning(['id'])
    .execute();
  return result.raw.length > 0;
}
