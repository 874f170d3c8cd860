import { createHash, createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { scoreText } from '../../shared/scoring';
import type { ProfileResult, SignalResult } from '../../shared/scoring';
import { AppError } from '../../shared/errors';
import { countInWindow } from '../http/fixed-window';
import type { GuideRequest } from './guide.schema';

/** Guide calls per window for a caller without a token (per keyed hash of the client address). */
export const GUIDE_CALLER_LIMIT = 10;
/** Guide calls per window for a bundle token (its own bucket; no credit is spent). */
export const GUIDE_BUNDLE_LIMIT = 60;
/** The rate window, seconds. */
export const GUIDE_WINDOW_SECONDS = 60;
/** How long an Idempotency-Key's answer is kept for replay, seconds. */
export const GUIDE_REPLAY_SECONDS = 86_400;
/** While a first call with a key runs, a second one with the same key waits this long at most before it may run again. */
const GUIDE_PENDING_SECONDS = 30;
/** An opaque Idempotency-Key: printable, no spaces, 1-200 characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** Whose allowance a guide call counts against. */
export type GuideCaller = { kind: 'company'; id: string } | { kind: 'bundle'; id: string } | { kind: 'caller'; id: string };

/** The stored part of an answer: no text of the draft or situation. */
export type GuideAnswer = Record<string, unknown>;

function normalized(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * An advice line without quotes of the draft. The engine's advice may quote the draft (the ban
 * list of the prompt addition, the "starting at" of the next step); the guide promises to keep no
 * text, and its answers are stored for replays, so every quoted phrase that is part of the draft is
 * left out. The signal spans say where those phrases are.
 * @param line - an advice sentence
 * @param draft - the draft
 * @param spans - every span the engine reported, with its text
 * @returns the line, quote-free
 */
export function withoutDraftQuotes(line: string, draft: string, spans: ReadonlyArray<{ start: number; end: number; text: string }>): string {
  const whole = normalized(draft);
  let out = line
    .replace(/ \(starting at "[^"]*"\)/g, (m) => {
      const at = spans.find((s) => m.includes(s.text.slice(0, 40)));
      return at ? ` (at characters ${at.start}-${at.end})` : '';
    })
    .replace(/\s*Never write: "[^"]*"(?:, "[^"]*")*\./g, ' Never write the machine phrases at the signal offsets.')
    .replace(/"([^"]*)"/g, (m, inner: string) => (normalized(inner) !== '' && whole.includes(normalized(inner)) ? '(a phrase of the draft)' : m));
  // Belt and braces: a reported phrase that survived (odd quoting) drops the whole sentence.
  if (spans.some((s) => s.text.trim().length >= 8 && out.includes(s.text.trim()))) out = 'See the signal codes and offsets.';
  return out.trim();
}

function presentSignals(signals: readonly SignalResult[]) {
  return signals.map((s) => ({ code: s.id, severity: s.severity, count: s.count, hard_fail: s.hard_fail, spans: s.spans.map((sp) => ({ start: sp.start, end: sp.end })) }));
}

/**
 * Guidance for a draft against a profile, from the engine, with offsets in place of text. Scored
 * in this process: a queued job would put the draft into Redis, which the guide promises not to do.
 * @param input - the validated body
 * @returns the answer (codes, numbers, offsets)
 */
export function guideFor(input: GuideRequest): GuideAnswer {
  const scored = scoreText({
    text: input.draft,
    incoming: input.situation?.incoming_message,
    delaySeconds: input.situation?.response_delay_seconds,
    profile: input.profile,
  });
  const verdict = scored.result as ProfileResult;
  const spans = [...scored.signals, ...verdict.signals].flatMap((s) => s.spans);
  const dims = verdict.dimensions;
  const dimension = (d: { measured: number; target: number; delta: number; fit: number }) => ({ measured: d.measured, target: d.target, delta: d.delta, fit: d.fit });
  return {
    scorer_version: scored.scorer_version,
    profile: verdict.profile,
    human_likeness: scored.human_likeness,
    eq_score: verdict.eq_score,
    passed: verdict.passed,
    signals: presentSignals(verdict.signals),
    dimensions: { empathy: dimension(dims.empathy), formality: dimension(dims.formality), directness: dimension(dims.directness), hesitation: dimension(dims.hesitation) },
    advice: {
      suggested_prompt_addition: withoutDraftQuotes(verdict.advice.suggested_prompt_addition, input.draft, spans),
      improvement: withoutDraftQuotes(verdict.advice.improvement, input.draft, spans),
      ...(verdict.advice.suggested_delay_seconds ? { suggested_delay_seconds: verdict.advice.suggested_delay_seconds } : {}),
    },
    offsets: 'utf-16',
  };
}

/**
 * The fingerprint of a call's inputs: HMAC-SHA-256 under a server secret, so a stored fingerprint
 * cannot be checked against a guessed draft by anyone without the secret.
 * @param secret - the server's keyed-hash secret
 * @param input - the validated body
 * @returns 64 hex characters
 */
export function inputFingerprint(secret: string, input: GuideRequest): string {
  const canonical = JSON.stringify([input.draft, input.profile, input.situation?.incoming_message ?? null, input.situation?.response_delay_seconds ?? null]);
  return createHmac('sha256', secret).update('aei-guide-inputs\0').update(canonical).digest('hex');
}

function replayKey(prefix: string, caller: GuideCaller, idempotencyKey: string): string {
  // The caller's key is opaque and may be anything: only its hash names the record.
  return `${prefix}aei-guide:replay:${caller.kind}:${caller.id}:${createHash('sha256').update(idempotencyKey).digest('hex')}`;
}

/** What a reservation of an Idempotency-Key found. */
export type Reservation = { kind: 'reserved' } | { kind: 'replay'; answer: GuideAnswer };

/**
 * Reserves an Idempotency-Key for one caller and fingerprint, or finds its earlier answer.
 * @param redis - Redis
 * @param prefix - key prefix (the queue prefix, so test suites do not meet)
 * @param caller - whose key it is (keys of different callers never meet)
 * @param idempotencyKey - the header
 * @param fingerprint - {@link inputFingerprint} of the inputs
 * @returns reserved (run the call) or the stored answer
 * @throws AppError 409 idempotency_conflict (other inputs) or idempotency_in_progress (the first call still runs)
 */
export async function reserveReplay(redis: Redis, prefix: string, caller: GuideCaller, idempotencyKey: string, fingerprint: string): Promise<Reservation> {
  const key = replayKey(prefix, caller, idempotencyKey);
  const set = await redis.set(key, JSON.stringify({ fingerprint, state: 'pending' }), 'EX', GUIDE_PENDING_SECONDS, 'NX');
  if (set === 'OK') return { kind: 'reserved' };
  const stored = JSON.parse((await redis.get(key)) ?? '{}') as { fingerprint?: string; state?: string; answer?: GuideAnswer };
  if (stored.fingerprint !== fingerprint) {
    throw new AppError(409, 'idempotency_conflict', 'This Idempotency-Key was used with other inputs; use a new key for a new draft.');
  }
  if (stored.state !== 'done' || !stored.answer) {
    throw new AppError(409, 'idempotency_in_progress', 'A call with this Idempotency-Key is still running; retry with the same key and inputs.', { headers: { 'Retry-After': '1' } });
  }
  return { kind: 'replay', answer: stored.answer };
}

/**
 * Stores the answer of a reserved key for replays (the answer holds no text).
 * @param redis - Redis
 * @param prefix - key prefix
 * @param caller - whose key it is
 * @param idempotencyKey - the header
 * @param fingerprint - the inputs' fingerprint
 * @param answer - the answer
 */
export async function storeReplay(redis: Redis, prefix: string, caller: GuideCaller, idempotencyKey: string, fingerprint: string, answer: GuideAnswer): Promise<void> {
  await redis.set(replayKey(prefix, caller, idempotencyKey), JSON.stringify({ fingerprint, state: 'done', answer }), 'EX', GUIDE_REPLAY_SECONDS);
}

/**
 * Releases a reservation whose call failed, so the same key may be tried again.
 * @param redis - Redis
 * @param prefix - key prefix
 * @param caller - whose key it is
 * @param idempotencyKey - the header
 */
export async function releaseReplay(redis: Redis, prefix: string, caller: GuideCaller, idempotencyKey: string): Promise<void> {
  await redis.del(replayKey(prefix, caller, idempotencyKey));
}

/**
 * Counts one call against a rate bucket (a bundle's or a caller's) and refuses when it is full.
 * @param redis - Redis
 * @param prefix - key prefix
 * @param caller - the bundle or caller
 * @param limit - calls per window
 * @returns calls left in the window
 * @throws AppError 429 guide_rate_limited with Retry-After
 */
export async function takeRateSlot(redis: Redis, prefix: string, caller: GuideCaller, limit: number): Promise<number> {
  const { count, retryAfterSeconds: retry } = await countInWindow(redis, `${prefix}aei-guide:rate:${caller.kind}:${caller.id}`, GUIDE_WINDOW_SECONDS);
  if (count > limit) {
    throw new AppError(429, 'guide_rate_limited', `At most ${limit} guide calls per ${GUIDE_WINDOW_SECONDS} s ${caller.kind === 'bundle' ? 'per bundle token' : 'without a token'}; a company token has its own allowance.`, {
      headers: { 'Retry-After': String(retry) },
      details: { limit, window_seconds: GUIDE_WINDOW_SECONDS },
    });
  }
  return limit - count;
}

/**
 * Counts one guide call against a company's period allowance, atomically.
 * @param db - DataSource
 * @param companyId - an active company
 * @returns calls left in the period
 * @throws AppError 429 guide_allowance_exhausted (none left, or the period ended)
 */
export async function takeCompanyGuideCall(db: DataSource, companyId: string): Promise<number> {
  const rows = (await db.query(
    `UPDATE aei_companies SET guide_calls_used = guide_calls_used + 1
      WHERE id = $1 AND activated_at IS NOT NULL AND now() < period_ends_at AND guide_calls_used < guide_calls_total
      RETURNING guide_calls_total - guide_calls_used AS left`,
    [companyId],
  )) as [Array<{ left: number }>, number];
  if (!rows[0][0]) {
    throw new AppError(429, 'guide_allowance_exhausted', "The company's guide calls for this period are used up, or its period ended (GET /api/aei/company/usage).");
  }
  return rows[0][0].left;
}

/**
 * Gives back a company guide call whose answer was never produced.
 * @param db - DataSource
 * @param companyId - the company
 */
export async function returnCompanyGuideCall(db: DataSource, companyId: string): Promise<void> {
  await db.query(`UPDATE aei_companies SET guide_calls_used = guide_calls_used - 1 WHERE id = $1 AND guide_calls_used > 0`, [companyId]);
}
