import { COACHING_CERTIFICATE_PREFIX } from '../../shared/coaching/certificate';
import { PACKS, meanDrillBar, type Drill, type Pack } from '../../shared/coaching/packs';
import { findProfile } from '../../shared/profiles';
import { PRODUCT_TERMS } from '../../shared/products';
import type { DrillOutcome } from './drill.service';
import type { PackStanding } from './drill-progress';
import type { EnrollmentRow } from './enrollment-store';
import { COACHING_SECRET_HEADER } from './coaching-secret';
import { maskWallet } from '../../shared/payments/mask';

/** How the certificate is earned, in one sentence (catalog, enrollment and progress say it alike). */
export const CERTIFICATE_RULE =
  "Clear every drill's bar (its best EQ score at or above the bar) and the pack's average bar (the mean of the drills' best scores, an unattempted drill counting 0): " +
  `a public certificate is then issued at GET /api/certificate/${COACHING_CERTIFICATE_PREFIX}<uuid>.`;

/** The note of the delivery that carries the secret. */
export const SECRET_SHOWN_NOTE = `secret is shown this once and stored only as a hash: keep it. Send it in the ${COACHING_SECRET_HEADER} header to POST /api/coaching/drill and GET /api/coaching/{enrollment_id}.`;

// How a payer gets its secret when the delivery that carried it was lost.
const CLAIM_HOW =
  'send the same request with the same payment and X-COACHING-CLAIM: the paying wallet\'s signature (EIP-191 personal_sign, or ed25519 for Solana) of "humanlike: claim coaching secret\\nnonce: <the payment\'s nonce>"; a new secret is shown once and the previous one stops working';

/** The note of a stored enrollment (what replays show): the secret is never in a stored response. */
export const SECRET_WITHHELD_NOTE = `secret is shown once, in the first delivery after settlement, to the request that paid; a replay rebuilt from the public chain never gets it. To get a new one, ${CLAIM_HOW}.`;

/** The note of a delivery that carries a secret issued on the payer's claim. */
export const SECRET_REISSUED_NOTE = `A new secret, issued on the payer's claim and stored only as a hash; the previous secret no longer works. Send it in the ${COACHING_SECRET_HEADER} header.`;

/** The note of every answer to an enrollment that is not its delivery (quote, refusal, pending). */
export const SECRET_PENDING_NOTE = `The drill secret comes in the first 200 after settlement, once. If this answer is not final (503, 504, a lost answer), never pay again: ${CLAIM_HOW}.`;

function presentDrillFacts(d: Drill, withSituation: boolean): Record<string, unknown> {
  return {
    drill_id: d.id,
    title: d.title,
    ...(withSituation ? { situation: d.situation } : {}),
    target_profile: d.target_profile,
    profile_name: findProfile(d.target_profile)?.name ?? d.target_profile,
    bar: d.bar,
  };
}

function presentPack(p: Pack): Record<string, unknown> {
  return {
    pack_id: p.id,
    name: p.name,
    description: p.description,
    drills: p.drills.map((d) => presentDrillFacts(d, true)),
    average_bar: p.average_bar,
    mean_drill_bar: meanDrillBar(p),
  };
}

/**
 * The public catalog of packs.
 * @returns the body of GET /api/coaching/packs
 */
export function presentCatalog(): Record<string, unknown> {
  return { attempts_included: PRODUCT_TERMS.coachingAttempts, certificate_rule: CERTIFICATE_RULE, packs: PACKS.map(presentPack) };
}

/**
 * An enrollment as stored for replays: no secret (`secret: null` and a note); the first delivery
 * adds the secret without storing it.
 * @param e - the enrollment
 * @param pack - its pack
 * @param resultId - the payment's result id
 * @returns the body
 */
export function presentEnrollment(e: EnrollmentRow, pack: Pack, resultId: string): Record<string, unknown> {
  return {
    enrollment_id: e.id,
    pack_id: pack.id,
    pack_name: pack.name,
    attempts: e.attemptsTotal,
    attempts_left: e.attemptsLeft,
    secret: null,
    secret_note: SECRET_WITHHELD_NOTE,
    drills: pack.drills.map((d) => presentDrillFacts(d, true)),
    average_bar: pack.average_bar,
    certificate_rule: CERTIFICATE_RULE,
    progress_path: `/api/coaching/${e.id}`,
    wallet: maskWallet(e.wallet),
    result_id: resultId,
  };
}

function presentStanding(s: PackStanding): Record<string, unknown> {
  return {
    drills_cleared: s.drills_cleared,
    drills_total: s.drills.length,
    average_score: s.average_score,
    average_bar: s.average_bar,
    average_cleared: s.average_cleared,
    complete: s.complete,
  };
}

function certificateLink(certificateId: string | null, origin: string): Record<string, unknown> | null {
  return certificateId ? { certificate_id: certificateId, url: `${origin}/api/certificate/${certificateId}` } : null;
}

/**
 * An enrollment's progress: per drill, its best score against its bar; attempts left; the certificate once earned.
 * @param e - the enrollment
 * @param pack - its pack
 * @param standing - its standing
 * @param origin - public origin for the certificate URL
 * @returns the body of GET /api/coaching/{enrollment_id}
 */
export function presentProgress(e: EnrollmentRow, pack: Pack, standing: PackStanding, origin: string): Record<string, unknown> {
  return {
    enrollment_id: e.id,
    pack_id: pack.id,
    pack_name: pack.name,
    attempts: e.attemptsTotal,
    attempts_left: e.attemptsLeft,
    drills: standing.drills,
    ...presentStanding(standing),
    certificate_rule: CERTIFICATE_RULE,
    certificate: certificateLink(e.certificateId, origin),
    created_at: e.createdAt.toISOString(),
  };
}

/**
 * A scored drill attempt with its prompt-level fixes. The submitted text is not echoed.
 * @param o - the outcome
 * @param e - the enrollment
 * @param drill - the drill
 * @param origin - public origin for the certificate URL
 * @returns the body of POST /api/coaching/drill
 */
export function presentDrill(o: DrillOutcome, e: EnrollmentRow, drill: Drill, origin: string): Record<string, unknown> {
  const v = o.verdict;
  const cleared = v.eq_score >= drill.bar;
  const dims = Object.entries(v.dimensions).filter(([id]) => id !== 'timing') as Array<[string, { measured: number; target: number; tolerance: number; delta: number }]>;
  const gaps = dims
    .filter(([, d]) => Math.abs(d.delta) > d.tolerance)
    .sort(([, a], [, b]) => Math.abs(b.delta) - Math.abs(a.delta))
    .map(([id, d]) => ({ dimension: id, measured: d.measured, target: d.target, delta: d.delta, direction: d.delta > 0 ? 'lower' : 'raise' }));
  return {
    attempt_id: o.attemptId,
    enrollment_id: e.id,
    drill: presentDrillFacts(drill, false),
    score: {
      eq_score: v.eq_score,
      passed: v.passed,
      human_likeness: o.humanLikeness,
      scorer_version: o.scorerVersion,
      dimensions: Object.fromEntries(dims.map(([id, d]) => [id, { measured: d.measured, target: d.target, delta: d.delta }])),
      ...(v.dimensions.timing ? { timing: { measured: v.dimensions.timing.measured, expected: v.dimensions.timing.expected, window: v.dimensions.timing.window } } : {}),
      signals: v.signals.map((s) => s.id),
    },
    cleared_bar: cleared,
    points_to_bar: cleared ? 0 : Math.round((drill.bar - v.eq_score) * 10) / 10,
    fixes: {
      note: cleared
        ? 'This attempt cleared the bar; keep the prompt addition to stay above it.'
        : `Add suggested_prompt_addition to the agent's system prompt to close the gap to the bar of ${drill.bar}; dimension_gaps lists what moved it away, largest first.`,
      suggested_prompt_addition: v.advice.suggested_prompt_addition,
      improvement: v.advice.improvement,
      ...(v.advice.suggested_delay_seconds ? { suggested_delay_seconds: v.advice.suggested_delay_seconds } : {}),
      dimension_gaps: gaps,
    },
    attempts_left: o.attemptsLeft,
    attempts: e.attemptsTotal,
    progress: presentStanding(o.standing),
    certificate: certificateLink(o.certificateId, origin),
  };
}
