import { UnavailableError } from '../errors';

// Connection-level failures (the server is down, restarting or out of connections), as opposed
// to faults in our own SQL, which must stay 500s.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|the database system is (starting up|shutting down)/i;

/**
 * Tells whether an error means PostgreSQL cannot be reached right now.
 * @param err - anything thrown by the driver or TypeORM
 * @returns true for connection-level failures
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    current = e.driverError ?? e.cause;
  }
  return false;
}

/**
 * The one answer to a request that needed PostgreSQL while it was unreachable: 503
 * `database_unavailable`, with Retry-After like the queue's 503.
 * @param cause - the driver's error, kept for the log
 * @param message - one human sentence (a path may say what was not done)
 * @returns the error to throw
 */
export function databaseUnavailableError(cause: unknown, message = 'The database is unreachable; retry later.'): UnavailableError {
  return new UnavailableError('database_unavailable', message, { headers: { 'Retry-After': '5' }, cause });
}
