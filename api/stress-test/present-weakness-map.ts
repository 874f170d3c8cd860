import type { ProfileResult, ProfileSummary, WeaknessMapResult } from '../../shared/scoring/result-types';

/** How many matchups the response names as the strongest and as the weakest. */
const MATCHUPS_SHOWN = 3;
/** How many gaps a prompt fix names. */
const GAPS_SHOWN = 3;

/** One way the reply misses a profile's dials, with the EQ-score points it costs. */
interface Gap {
  dimension: string;
  measured: number;
  target: number;
  delta: number;
  direction: 'raise' | 'lower';
  points_lost: number;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The main gaps of a verdict: dimensions outside their tolerance band and timing off its window,
 * costliest first (points lost = 100 x weight x (1 - fit), the style fit the gap gives up).
 */
function mainGaps(verdict: ProfileResult): Gap[] {
  const gaps: Gap[] = [];
  const { timing, ...dims } = verdict.dimensions;
  for (const [dimension, d] of Object.entries(dims)) {
    if (Math.abs(d.delta) <= d.tolerance || d.fit >= 1) continue;
    gaps.push({ dimension, measured: d.measured, target: d.target, delta: d.delta, direction: d.delta < 0 ? 'raise' : 'lower', points_lost: round(100 * d.weight * (1 - d.fit), 1) });
  }
  if (timing && timing.fit < 1) {
    const delta = round(timing.measured - timing.expected, 2);
    gaps.push({ dimension: 'timing', measured: timing.measured, target: timing.expected, delta, direction: delta < 0 ? 'raise' : 'lower', points_lost: round(100 * timing.weight * (1 - timing.fit), 1) });
  }
  return gaps.sort((a, b) => b.points_lost - a.points_lost || (a.dimension < b.dimension ? -1 : 1)).slice(0, GAPS_SHOWN);
}

function promptFix(verdict: ProfileResult) {
  return {
    profile: verdict.profile,
    eq_score: verdict.eq_score,
    passed: verdict.passed,
    suggested_prompt_addition: verdict.advice.suggested_prompt_addition,
    main_gaps: mainGaps(verdict),
    machine_signals: verdict.signals.map((s) => ({ id: s.id, hard_fail: s.hard_fail })),
    improvement: verdict.advice.improvement,
    suggested_delay_seconds: verdict.advice.suggested_delay_seconds ?? null,
  };
}

/** The ledger summary of a stress test: the weakest matchup, the mean EQ score, and whether every profile passed. */
export interface StressSummary {
  profile: string;
  score: number;
  passed: boolean;
}

/**
 * The weakness map a stress test answers: each profile's EQ score and pass (best first), the
 * strongest and weakest matchups, the pass rate across all profiles, the mean EQ score, and prompt
 * fixes (suggested prompt addition, main gaps) for the worst profiles.
 * @param map - the engine's weakness map
 * @param resultId - public id of the result
 * @returns the body (stored as is for replays) and the ledger summary
 */
export function presentWeaknessMap(map: WeaknessMapResult, resultId: string): { body: Record<string, unknown>; summary: StressSummary } {
  const profiles: ProfileSummary[] = map.profiles;
  const worst = map.weakest[0];
  if (profiles.length === 0 || !worst) throw new Error('a stress test always details at least its weakest profile');
  const passedCount = profiles.filter((p) => p.passed).length;
  const mean = round(profiles.reduce((sum, p) => sum + p.eq_score, 0) / profiles.length, 1);
  const body: Record<string, unknown> = {
    result_id: resultId,
    scorer_version: map.scorer_version,
    human_likeness: map.human_likeness,
    profile_count: profiles.length,
    passed_count: passedCount,
    pass_rate: round(passedCount / profiles.length, 4),
    mean_eq_score: mean,
    profiles,
    strongest: profiles.slice(0, MATCHUPS_SHOWN),
    weakest: profiles.slice(-MATCHUPS_SHOWN).reverse(),
    prompt_fixes: map.weakest.map(promptFix),
    improvement: `Weakest against ${worst.profile} (${worst.eq_score}): ${worst.advice.improvement}`,
  };
  return { body, summary: { profile: worst.profile, score: mean, passed: passedCount === profiles.length } };
}
