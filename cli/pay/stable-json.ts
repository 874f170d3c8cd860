import type { PaidSessionOutcome } from './pay-for-session';

/**
 * A JSON value with every object's keys in code-point order, at every depth (as `jq -S`); arrays
 * keep their order. Two answers with the same members print the same bytes, whatever order the
 * server built them in, so outputs diff and hash cleanly.
 * @param value - a parsed JSON value
 * @returns the same value, keys sorted
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

/** The members of `humanlike pay --json`, in this order. */
export const PAY_JSON_MEMBERS = ['status', 'body', 'receipt', 'paid', 'replayed', 'resumed_from'] as const;

/**
 * A body as JSON: a JSON Lines answer (the training dataset under `--out`) is the array of its lines.
 * @param body - the answer body as read
 * @returns a JSON value
 */
export function bodyAsJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return body
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as unknown);
  } catch {
    return body; // plain text: as it came
  }
}

/**
 * What `humanlike pay --json` prints: one object with the members of {@link PAY_JSON_MEMBERS} in
 * that order (absent ones null), and inside `body`, `receipt` and `paid` every object's keys
 * sorted ({@link sortKeys}).
 * @param outcome - the paid call's final answer
 * @returns one line of JSON, ending in a newline
 */
export function payJson(outcome: PaidSessionOutcome): string {
  const members: Record<(typeof PAY_JSON_MEMBERS)[number], unknown> = {
    status: outcome.status,
    body: sortKeys(bodyAsJson(outcome.body)),
    receipt: sortKeys(outcome.receipt ?? null),
    paid: sortKeys(outcome.paid ?? null),
    replayed: outcome.replayed,
    resumed_from: outcome.resumedFrom ?? null,
  };
  return `${JSON.stringify(Object.fromEntries(PAY_JSON_MEMBERS.map((m) => [m, members[m]])))}\n`;
}

/**
 * What `--out FILE` writes: a JSON Lines answer byte for byte as the server sent it; any other
 * answer as JSON with sorted keys ({@link sortKeys}), two-space indented, ending in a newline.
 * @param body - the 200 body as read
 * @returns the file's content
 */
export function answerFileContent(body: unknown): string {
  if (typeof body === 'string') return body.endsWith('\n') ? body : `${body}\n`;
  return `${JSON.stringify(sortKeys(body), null, 2)}\n`;
}
