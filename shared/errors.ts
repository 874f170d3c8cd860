/** Options every {@link AppError} takes besides its message. */
export interface AppErrorOptions {
  /** Machine-readable detail sent to the caller (only when `expose` is true). */
  details?: unknown;
  /** Extra top-level members of the error body, next to `error` (e.g. the free tier's `upgrade` block). */
  extra?: Record<string, unknown>;
  /** Extra response headers (e.g. `Retry-After`). */
  headers?: Record<string, string>;
  /** The underlying fault, kept for logs only. */
  cause?: unknown;
  /** Send message and details to the caller; defaults to true below 500. */
  expose?: boolean;
}

/**
 * An error with a stable snake_case code and an HTTP status, in Koa's `status`/`expose` convention:
 * the message and details reach the caller only when `expose` is true (every status below 500).
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly expose: boolean;
  readonly details?: unknown;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  /**
   * @param status - HTTP status
   * @param code - stable snake_case code
   * @param message - one human sentence
   * @param options - details, extra body members, headers and cause
   */
  constructor(status: number, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.expose = options.expose ?? status < 500;
    this.details = options.details;
    this.extra = options.extra;
    this.headers = options.headers;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** One failing field of a request, addressed by its JSON pointer. */
export interface FieldProblem {
  /** JSON pointer of the field, e.g. `/proposed_text` ("" for the whole body). */
  path: string;
  /** The schema rule that failed (ajv keyword: type, required, maxLength, ...). */
  rule: string;
  /** What is wrong, in a few words. */
  message: string;
}

/** 422: the request does not match its schema; `details.fields` lists every failing field. */
export class ValidationError extends AppError {
  /**
   * @param fields - every failing field
   * @param message - one human sentence
   * @param code - defaults to `validation_failed`
   */
  constructor(fields: FieldProblem[], message = 'The request is not valid; see details.fields.', code = 'validation_failed') {
    super(422, code, message, { details: { fields } });
    this.name = 'ValidationError';
  }
}

/** 422: well-formed input that can never be processed (the scorer rejected it). */
export class InputRejectedError extends AppError {
  /**
   * @param code - snake_case reason
   * @param message - one human sentence
   * @param details - e.g. the offending field
   */
  constructor(code: string, message: string, details?: unknown) {
    super(422, code, message, { details });
    this.name = 'InputRejectedError';
  }
}

/** 404: no such route or resource. */
export class NotFoundError extends AppError {
  /** @param message - one human sentence */
  constructor(message = 'Nothing is served at this path.') {
    super(404, 'not_found', message);
    this.name = 'NotFoundError';
  }
}

/** 502: an upstream service answered badly. */
export class UpstreamError extends AppError {
  /**
   * @param code - snake_case reason
   * @param message - one human sentence
   * @param cause - the upstream fault
   */
  constructor(code: string, message: string, cause?: unknown) {
    super(502, code, message, { cause });
    this.name = 'UpstreamError';
  }
}

/** 503: a dependency (Redis, PostgreSQL, the thread pool) cannot take the request now. Exposed: it names no internals. */
export class UnavailableError extends AppError {
  /**
   * @param code - snake_case reason, e.g. `queue_unavailable`
   * @param message - one human sentence
   * @param options - details, headers and cause
   */
  constructor(code: string, message: string, options: AppErrorOptions = {}) {
    super(503, code, message, { expose: true, ...options });
    this.name = 'UnavailableError';
  }
}

/** 504: the job did not finish before the deadline. */
export class JobTimeoutError extends AppError {
  /**
   * @param timeoutMs - the deadline that passed
   * @param cause - the waiter's own error, for logs
   */
  constructor(timeoutMs: number, cause?: unknown) {
    super(504, 'job_timeout', `The job did not finish within ${timeoutMs} ms; nothing was charged, retry later.`, {
      details: { timeout_ms: timeoutMs },
      cause,
      expose: true,
    });
    this.name = 'JobTimeoutError';
  }
}

/** 500: a server fault; the message is never sent to the caller. */
export class InternalError extends AppError {
  /**
   * @param message - for logs
   * @param code - defaults to `internal_error`
   * @param cause - the original fault
   */
  constructor(message = 'Internal error.', code = 'internal_error', cause?: unknown) {
    super(500, code, message, { cause });
    this.name = 'InternalError';
  }
}

/** Thrown by `loadConfig` with every problem of the environment at once. */
export class ConfigError extends Error {
  readonly problems: string[];

  /** @param problems - one line per invalid or missing variable */
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
