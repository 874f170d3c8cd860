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

// Scores are gathered for a moment and written by one UPDATE for all of them: a score arrives
// with every free reply, and one statement per reply cost PostgreSQL about as much CPU as the
// round's reservation itself (0.2 ms per reply at one connection). Scores recorded while a write
// is in flight go into the next one.
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

/** How long the first score after a quiet moment waits for others to share its write. */
export const CORPUS_SCORES_GATHER_MS = 50;

/**
 * Creates the writer of corpus scores. The reply itself was recorded with the reservation of the
 * round; its scores are derived data, written here off the response path, at most about
 * `gatherMs` after the reply (`drain` writes at once). A write that fails is logged and the row
 * keeps NULL scores (`scored_at` NULL says so), as do rows whose scores were still gathering when
 * the process died.
 * @param dataSource - initialized DataSource
 * @param log - where failures are logged
 * @param gatherMs - how long a first score waits for others before its write
 * @returns the writer
 */
export function createCorpusScoreWriter(dataSource: DataSource, log: Logger, gatherMs = CORPUS_SCORES_GATHER_MS): CorpusScoreWriter {
  let queued: PendingScore[] = [];
  let inFlight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

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

  // Writes what is queued now (or joins the write in flight).
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (inFlight) return inFlight;
    if (queued.length === 0) return Promise.resolve();
    const batch = queued;
    queued = [];
    inFlight = write(batch).finally(() => {
      inFlight = undefined;
      if (queued.length > 0) schedule();
    });
    return inFlight;
  };

  const schedule = () => {
    if (timer || inFlight) return;
    timer = setTimeout(() => void flush(), gatherMs);
    // A gathering write never keeps the process alive; shutdown drains it.
    timer.unref();
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
      schedule();
    },
    async drain() {
      while (inFlight || queued.length > 0) await flush();
    },
  };
}
