import { ValidationError } from '../../shared/errors';
import { PRODUCT_TERMS } from '../../shared/products';

/** The header that names one embedded check for replay. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** `embed-<13-digit ms timestamp>-<opaque suffix>` (contract section 8); the suffix is URL-safe, 1 to 128 characters. */
export const EMBED_KEY_PATTERN = '^embed-[0-9]{13}-[A-Za-z0-9._~-]{1,128}$';
const KEY = new RegExp(EMBED_KEY_PATTERN);

/** How far ahead of this server's clock a key's timestamp may be (a client clock running fast). */
export const KEY_FUTURE_SKEW_MS = 5 * 60_000;

/** The replay window, in milliseconds from the key's timestamp. */
export const KEY_RETENTION_MS = PRODUCT_TERMS.embedReplayRetentionSeconds * 1000;

/** A valid key and the time it was made. */
export interface EmbedKey {
  key: string;
  issuedAtMs: number;
}

function refuse(code: string, rule: string, message: string, fieldMessage: string): ValidationError {
  return new ValidationError([{ path: `header:${IDEMPOTENCY_KEY_HEADER}`, rule, message: fieldMessage }], message, code);
}

/**
 * Reads the Idempotency-Key of an embedded check. A key is good for replay for 86400 s from its
 * own timestamp; an older one is refused, so a key whose stored answer was swept can never be
 * charged a second time, and one stamped far ahead is refused so no key outlives the window.
 * @param header - the header value ('' when absent)
 * @param nowMs - this server's clock
 * @returns the key, or undefined when none was sent (each such call is a new charge)
 * @throws ValidationError 422 invalid_idempotency_key, idempotency_key_expired, idempotency_key_from_future
 */
export function readEmbedKey(header: string, nowMs: number): EmbedKey | undefined {
  if (header === '') return undefined;
  if (!KEY.test(header)) {
    throw refuse(
      'invalid_idempotency_key',
      'pattern',
      'Idempotency-Key must be embed-<13-digit ms timestamp>-<suffix of 1 to 128 URL-safe characters>.',
      `must match ${EMBED_KEY_PATTERN}`,
    );
  }
  const issuedAtMs = Number(header.slice(6, 19));
  if (nowMs - issuedAtMs > KEY_RETENTION_MS) {
    throw refuse(
      'idempotency_key_expired',
      'expired',
      `This Idempotency-Key is older than the ${PRODUCT_TERMS.embedReplayRetentionSeconds} s replay window; make a new key (nothing was charged).`,
      'is older than the replay window',
    );
  }
  if (issuedAtMs - nowMs > KEY_FUTURE_SKEW_MS) {
    throw refuse(
      'idempotency_key_from_future',
      'future',
      'This Idempotency-Key is stamped more than 5 minutes ahead of the server clock; stamp it with the current time in milliseconds.',
      'is stamped in the future',
    );
  }
  return { key: header, issuedAtMs };
}
