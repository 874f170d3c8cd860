import pino, { type DestinationStream, type Logger } from 'pino';
import type { AppConfig } from './config';

export type { Logger } from 'pino';

// Payment proofs, bundle and program tokens, and the caller's address never reach a log line.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-roleplay-secret"]',
  'req.headers["x-aei-pilot-token"]',
  'req.headers["x-aei-wording-token"]',
  'req.headers["x-aei-company-token"]',
  'req.headers["x-forwarded-for"]',
  'res.headers["payment-response"]',
  'res.headers["x-payment-response"]',
  'headers.authorization',
  '*.signature',
  '*.authorization',
  '*.bundle_token',
  '*.session_secret',
];

// Members of a database error that carry the values of a statement: the bound parameters
// (TypeORM's QueryFailedError), PostgreSQL's DETAIL ("Failing row contains (...)", "Key (x)=(...)")
// and WHERE context. The table, column, constraint and SQLSTATE code stay: they say what failed.
const STATEMENT_VALUES = new Set(['parameters', 'detail', 'where']);
// PostgreSQL quotes the value it could not take in its message (`invalid input syntax for type
// integer: "..."`); identifiers are in the error's own members, so every quoted part goes.
const QUOTED = /"(?:[^"]|"")*"/g;

function withoutStatementValues(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => withoutStatementValues(v, depth + 1));
  const record = value as Record<string, unknown>;
  const isDatabaseError = typeof record.query === 'string' || (typeof record.code === 'string' && /^[0-9A-Z]{5}$/.test(record.code) && 'severity' in record);
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(record)) {
    if (STATEMENT_VALUES.has(key)) continue;
    out[key] = isDatabaseError && key === 'message' && typeof member === 'string' ? member.replace(QUOTED, '"[value]"') : withoutStatementValues(member, depth + 1);
  }
  if (isDatabaseError && typeof out.stack === 'string') out.stack = out.stack.replace(QUOTED, '"[value]"');
  return out;
}

/**
 * The `err` serializer: pino's standard one, then a database error's statement values removed
 * (submitted text is bound as a parameter and PostgreSQL repeats rows and values in its errors).
 * @param err - what was logged under `err`
 * @returns the serialized error
 */
export function serializeError(err: unknown): unknown {
  return withoutStatementValues(pino.stdSerializers.err(err as Error));
}

/**
 * Builds the root logger: JSON lines to stdout (or the given stream), `service` on every line,
 * the standard `err` serializer and redaction of payment headers, signatures and tokens. Stdout is
 * written synchronously, as Node itself writes `process.stdout` to files and pipes: a line is out
 * when the call returns, so a process that dies next keeps its last words (pino's default
 * destination handed each line to libuv's thread pool, a thread woken and an eventfd back per
 * line, and lost it on a SIGKILL).
 * @param cfg - the `log` section of the config
 * @param service - `web`, `worker`, ...
 * @param destination - output stream; stdout when omitted (tests pass a capture stream)
 * @param secretHeaders - request headers that carry secrets besides the fixed list (the payment
 *   methods' own, which the web process passes: a logger in `shared/` cannot know them)
 * @returns the root logger; make children per request (`reqId`) or job (`jobId`)
 */
export function createLogger(cfg: Pick<AppConfig, 'log'>, service: string, destination?: DestinationStream, secretHeaders: readonly string[] = []): Logger {
  const headerPaths = secretHeaders.flatMap((name) => [`req.headers[${JSON.stringify(name.toLowerCase())}]`, `headers[${JSON.stringify(name.toLowerCase())}]`]);
  const options = {
    level: cfg.log.level,
    base: { service },
    serializers: { err: serializeError },
    redact: { paths: [...REDACT, ...headerPaths], censor: '[redacted]' },
  };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
}

const CONNECTION_ERROR = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|Connection is closed/;

/**
 * An `error` listener for BullMQ queues, workers and queue events. While Redis is down they emit
 * an error on every reconnect attempt; this logs the first connection error, then at most one a
 * minute, and every other error as it comes.
 * @param log - logger
 * @param fields - fields for every line (e.g. `{ queue }`)
 * @param msg - short static message
 * @returns the listener
 */
export function connectionErrorListener(log: Logger, fields: Record<string, unknown>, msg: string): (err: Error) => void {
  let last = 0;
  return (err: Error) => {
    const now = Date.now();
    if (CONNECTION_ERROR.test(err.message)) {
      if (now - last < 60_000) return;
      last = now;
    }
    log.error({ ...fields, err }, msg);
  };
}
