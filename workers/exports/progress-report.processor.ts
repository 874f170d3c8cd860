import Ajv from 'ajv';
import { UnrecoverableError, type Job, type Processor } from 'bullmq';
import type { DataSource } from 'typeorm';
import { DEFAULT_HISTORY_LIMIT, encodeJobError, progressReportPayloadSchema, type ProgressReport, type ProgressReportPayload } from '../../jobs';
import { EQ_SESSION_SQL } from '../../shared/eq-sessions';
import type { Logger } from '../../shared/logger';
import { buildProgressReport, type ProgressContext, type ProgressRow } from './progress-report';

/** What the progress-report processor needs. */
export interface ProgressReportProcessorDeps {
  dataSource: DataSource;
  log: Logger;
  /** How many of the newest scored sessions the report reads (bounded memory per job). */
  window?: number;
}

/** Default number of newest sessions a report reads. */
export const PROGRESS_WINDOW = 1000;

const validatePayload = new Ajv({ allErrors: true, strict: true }).compile<ProgressReportPayload>(progressReportPayloadSchema);

async function readContext(ds: DataSource, wallet: string, window: number, historyLimit: number): Promise<ProgressContext> {
  const [totals] = (await ds.query(`SELECT count(*)::int AS n FROM ledger_sessions WHERE payer = $1 AND ${EQ_SESSION_SQL}`, [wallet])) as Array<{ n: number }>;
  const [main] = (await ds.query(
    `SELECT profile FROM ledger_sessions WHERE payer = $1 AND ${EQ_SESSION_SQL}
      GROUP BY profile ORDER BY count(*) DESC, profile LIMIT 1`,
    [wallet],
  )) as Array<{ profile: string }>;
  if (!main) return { total: totals.n, window, historyLimit, mainProfile: null, peers: null };
  // Every bot is a paying wallet: compare this wallet's average on its main profile with theirs.
  const [peers] = (await ds.query(
    `WITH per AS (SELECT payer, avg(score) AS s FROM ledger_sessions WHERE profile = $2 AND ${EQ_SESSION_SQL} GROUP BY payer),
          mine AS (SELECT s FROM per WHERE payer = $1)
     SELECT count(*) FILTER (WHERE payer <> $1)::int AS "otherBots",
            count(*) FILTER (WHERE payer <> $1 AND s < (SELECT s FROM mine))::int AS below,
            count(*) FILTER (WHERE payer <> $1 AND s = (SELECT s FROM mine))::int AS ties
       FROM per`,
    [wallet, main.profile],
  )) as Array<{ otherBots: number; below: number; ties: number }>;
  return { total: totals.n, window, historyLimit, mainProfile: main.profile, peers };
}

/**
 * Builds the BullMQ processor of progress reports on the `exports` queue: reads the wallet's
 * newest scored sessions (simulate sessions and duel legs: the only rows with an EQ score) (at most the window) and computes the report. Reads only; a database
 * fault is retried, a payload that does not match its schema fails at once.
 * @param deps - DataSource and logger
 * @returns the processor
 */
export function createProgressReportProcessor(deps: ProgressReportProcessorDeps): Processor<ProgressReportPayload, ProgressReport> {
  const window = deps.window ?? PROGRESS_WINDOW;
  return async function processProgressReport(job: Job<ProgressReportPayload, ProgressReport>) {
    if (!validatePayload(job.data)) {
      throw new UnrecoverableError(encodeJobError({ status: 500, code: 'invalid_job_payload', message: 'The job payload does not match its schema.' }));
    }
    const { wallet } = job.data;
    const ctx = await readContext(deps.dataSource, wallet, window, job.data.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    const newest = (await deps.dataSource.query(
      `SELECT settled_at::text AS settled_at, product, profile, score AS eq_score, passed, persona_targets, measured_dimensions
         FROM ledger_sessions WHERE payer = $1 AND ${EQ_SESSION_SQL}
        ORDER BY settled_at DESC, id DESC LIMIT $2`,
      [wallet, window],
    )) as ProgressRow[];
    const report = buildProgressReport(newest.reverse(), ctx);
    deps.log.debug({ jobId: job.id, sessions: report.sessions.in_report, reqId: job.data.reqId }, 'progress report built');
    return report;
  };
}
