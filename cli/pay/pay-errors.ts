import type { PaidTerms } from './pending-payments';

/** Why {@link PaymentRefusedError} refused to sign. */
export type RefusalReason =
  /** The quoted token is neither an x402 default asset nor one the caller allowed. */
  | 'asset_not_allowed'
  /** The quote asks more than the caller's limit. */
  | 'above_limit'
  /** The 402 challenge could not be read, or offers nothing this client can pay. */
  | 'unreadable_challenge'
  /** The x402 client would not sign it. */
  | 'signing_failed';

/** A refusal to pay, before anything was signed: the quote broke the caller's limits or could not be read. */
export class PaymentRefusedError extends Error {
  /**
   * @param reason - why
   * @param message - one sentence
   * @param offer - the quoted terms, when the quote could be read
   */
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly offer?: PaidTerms,
  ) {
    super(message);
    this.name = 'PaymentRefusedError';
    Object.setPrototypeOf(this, PaymentRefusedError.prototype);
  }
}

/** The server could not be reached at all, before anything was signed. */
export class ServerUnreachableError extends Error {
  /**
   * @param url - the URL that was tried
   * @param why - the transport failure, e.g. "connect ECONNREFUSED 127.0.0.1:3000"
   * @param cause - the fetch error
   */
  constructor(
    readonly url: string,
    readonly why: string,
    cause: unknown,
  ) {
    super(`could not reach ${url}: ${why}`, { cause });
    this.name = 'ServerUnreachableError';
    Object.setPrototypeOf(this, ServerUnreachableError.prototype);
  }
}

/**
 * A signed payment got no final answer within the retry window (no answer, a 5xx, or a 402
 * `settlement_failed`). It may have been charged, or may still be; it is kept in `file` and the
 * same call resumes it instead of signing another.
 */
export class PaymentPendingError extends Error {
  /**
   * @param details - the kept file, when it was signed, the last problem, the last HTTP answer if any
   */
  constructor(readonly details: { file: string; signedAt: string; lastProblem: string; status?: number; body?: unknown; retriedForMs: number }) {
    super(
      `no final answer for the payment signed at ${details.signedAt} after ${Math.round(details.retriedForMs / 1000)} s of retries (last: ${details.lastProblem}); ` +
        `it is kept in ${details.file}: run the same command again to resume it, it is never charged twice`,
    );
    this.name = 'PaymentPendingError';
    Object.setPrototypeOf(this, PaymentPendingError.prototype);
  }
}
