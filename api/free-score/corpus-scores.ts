import type { DataSource } from 'typeorm';
import { runHotStatement, type HotStatement } from '../../shared/db/hot-statement';
import type { Logger } from '../../shared/logger';
import type { ScoreResult } from '../../shared/scoring/result-types';

/** Fills in the score columns of free corpus rows after their replies were sent. */
export interface CorpusScoreWriter {
  /** Queues the scores of one corpus row; never throws, never delays the caller. */
  record(corpusEntryId: string, score: ScoreResult): void;
  /** Resolves once every score queued so far is written (or its failure logged). */
  drain(): Promise<void>;
}

interface PendingScore {
  id: string;
  eqScore: number | null;
  humanLikeness: number;
  passed: boolean | null;
  scorerVersion: string;
}

// Every score queued while a write is in flight goes into the next write: one UPDATE for all of
// them, so under load the corpus costs a fraction of a statement per reply, and at rest each score
// is written at once.
const WRITE_SCORES: HotStatement = {
  name: 'free_corpus_write_scores',
  text: `
  UPDATE free_corpus_entries AS e
     SET eq_score = s.eq_score, human_likeness = s.human_likeness, passed = s.passed,
         scorer_version = s.scorer_version, scored_at = now()
    FROM unnest($1::uuid[], $2::float8[], $3::float8[], $4::boolean[], $5::text[])
         AS s(id, eq_score, human_likeness, passed, scorer_version)
   WHERE e.id = s.id`,
};

/**
 * Creates the writer of corpus scores. The reply itself was recorded with the reservation of the
 * round; its scores are derived data, written here off the response path. A write that fails is
 * logged and the row keeps NULL scores (`scored_at` NULL says so).
 * @param dataSource - initialized DataSource
 * @param log - where failures are logged
 * @returns the writer
 */
export function createCorpusScoreWriter(dataSource: DataSource, log: Logger): CorpusScoreWriter {
  let queued: PendingScore[] = [];
  let inFlight: Promise<void> | undefined;

  const write = async (batch: PendingScore[]) => {
    try {
      await runHotStatement(dataSource, WRITE_SCORES, [
        batch.map((s) => s.id),
        batch.map((s) => s.eqScore),
        batch.map((s) => s.humanLikeness),
        batch.map((s) => s.passed),
        batch.map((s) => s.scorerVersion),
      ]);
    } catch (err) {
      log.error({ err, rows: batch.length }, 'free corpus scores not written');
    }
  };

  const pump = (): Promise<void> => {
    if (inFlight) return inFlight;
    if (queued.length === 0) return Promise.resolve();
    const batch = queued;
    queued = [];
    inFlight = write(batch).finally(() => {
      inFlight = undefined;
      void pump();
    });
    return inFlight;
  };

  return {
    record(corpusEntryId, score) {
      queued.push({
        id: corpusEntryId,
        eqScore: score.result?.eq_score ?? null,
        humanLikeness: score.human_likeness,
        passed: score.result?.passed ?? null,
        scorerVersion: score.scorer_version,
      });
      void pump();
    },
    async drain() {
      while (inFlight || queued.length > 0) await pump();
    },
  };
}
