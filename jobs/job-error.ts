import { AppError, InternalError } from '../shared/errors';

/** An error as it crosses the queue: BullMQ keeps only the message (`failedReason`). */
export interface EncodedJobError {
  status: number;
  code: string;
  message: string;
  details?: unknown;
}

const PREFIX = 'hl-job-error:';

// Statuses a worker may report; anything else is a server fault.
const ALLOWED_STATUS = new Set([409, 422, 500, 502, 503]);

/**
 * Encodes an error into a job's failure message (the worker side).
 * @param error - status, code, message and optional details
 * @returns a string for `new UnrecoverableError(...)` or `new Error(...)`
 */
export function encodeJobError(error: EncodedJobError): string {
  return PREFIX + JSON.stringify({ status: error.status, code: error.code, message: error.message, details: error.details });
}

/**
 * Decodes a failed job's reason back into an AppError (the API side). BullMQ rejects
 * `waitUntilFinished` with a plain Error built from `failedReason`, so the class is lost and only
 * this encoding survives.
 * @param failedReason - the job's failure message
 * @returns the AppError to answer with; 500 `job_failed` for anything undecodable
 */
export function decodeJobError(failedReason: string | undefined): AppError {
  if (failedReason?.startsWith(PREFIX)) {
    try {
      const e = JSON.parse(failedReason.slice(PREFIX.length)) as Partial<EncodedJobError>;
      if (typeof e.code === 'string' && typeof e.message === 'string' && typeof e.status === 'number' && ALLOWED_STATUS.has(e.status)) {
        return e.status >= 500
          ? new AppError(e.status, e.code, e.message)
          : new AppError(e.status, e.code, e.message, { details: e.details });
      }
    } catch {
      // fall through: not our encoding after all
    }
  }
  return new InternalError(`job failed: ${failedReason ?? 'no reason'}`, 'job_failed');
}
