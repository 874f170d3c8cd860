/**
 * The error code of an answer body: x402 challenges carry `error` as a string, the service's other
 * errors `{ error: { code } }`.
 * @param body - the parsed body
 * @returns the code, if any
 */
export function answerCode(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return error;
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether the answer to a paid request settles the fate of its authorization. A 200 (delivered) or
 * a refusal (a 402 for another reason, 409, 422, other 4xx) is final. A 5xx (503, 504
 * `settlement_pending` included), a 408 or 429, and a 402 `settlement_failed` are not: the payment
 * may have been charged or may still be, and the server asks for the same authorization again.
 * @param status - HTTP status
 * @param body - the parsed body
 * @returns true when the authorization can be forgotten
 */
export function isFinalAnswer(status: number, body: unknown): boolean {
  if (status >= 500 || status === 408 || status === 429) return false;
  return !(status === 402 && answerCode(body) === 'settlement_failed');
}

/**
 * Reads a Retry-After header (delay-seconds or an HTTP date).
 * @param header - the header value
 * @param now - the current time (ms)
 * @returns the wait in ms, or undefined when absent or unreadable
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Says why a fetch failed in words a user can act on (fetch itself only says "fetch failed").
 * @param err - what fetch threw
 * @returns e.g. "connect ECONNREFUSED 127.0.0.1:3000" or "other side closed (UND_ERR_SOCKET)"
 */
export function describeFetchFailure(err: unknown): string {
  const cause = (err as { cause?: unknown } | null)?.cause ?? err;
  const causes = cause instanceof AggregateError && cause.errors.length ? cause.errors : [cause];
  const parts = causes.map((c) => {
    const { message, code } = (c ?? {}) as { message?: unknown; code?: unknown };
    const text = typeof message === 'string' && message ? message : String(c);
    return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
  });
  return [...new Set(parts)].join('; ');
}
