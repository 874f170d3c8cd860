import type { ProgressReport, ProgressSession } from '../../jobs';

/** A scored ledger row as the report reads it, oldest first. */
export interface ProgressRow extends ProgressSession {
  persona_targets: Record<string, { target: number; tolerance: number }> | null;
  measured_dimensions: Record<string, number> | null;
}

/** What the report compares the wallet with: its main profile and the other bots on it. */
export interface ProgressContext {
  total: number;
  window: number;
  /** How many of the newest sessions to list one by one. */
  historyLimit: number;
  mainProfile: string | null;
  /** The wallet's average on the main profile, and how the other wallets' averages compare. */
  peers: { otherBots: number; below: number; ties: number } | null;
}

// Sessions compared at each end of the window for the trend.
const TREND_SPAN = 5;
// A slope below this many EQ points per session reads as flat.
const FLAT_SLOPE = 0.05;
// A dimension drifts when it leaves its frozen band in more than this share of the checked sessions.
const DRIFT_RATE = 0.25;

const ACCURACY_NOTE =
  'This report measures style against the persona targets (tone, register, hedging, directness); it is not a ' +
  'factual-accuracy check: nothing here tells whether what the replies said was true.';
const DRIFT_BASIS = 'each session measured against the persona targets frozen when it was scored (its own targets, not today’s profile)';

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function slope(ys: number[]): number {
  const n = ys.length;
  if (n < 2) return 0;
  const mx = (n - 1) / 2;
  const my = mean(ys);
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

function streaks(rows: ProgressRow[]): { current: number; best: number } {
  let best = 0;
  let run = 0;
  for (const r of rows) {
    run = r.passed ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return { current: run, best };
}

function trendOf(rows: ProgressRow[]): ProgressReport['trend'] {
  if (rows.length < 2) return null;
  const scores = rows.map((r) => r.eq_score);
  const span = Math.min(TREND_SPAN, Math.floor(scores.length / 2));
  const s = slope(scores);
  return {
    direction: Math.abs(s) < FLAT_SLOPE ? 'flat' : s > 0 ? 'improving' : 'declining',
    slope_per_session: round(s, 3),
    first_average: round(mean(scores.slice(0, span))),
    last_average: round(mean(scores.slice(-span))),
    compared: span,
  };
}

function gapsOf(rows: ProgressRow[], profile: string | null): ProgressReport['dimension_gaps'] {
  const sums: Record<string, { gap: number; abs: number; n: number }> = {};
  for (const r of rows) {
    if (r.profile !== profile || !r.persona_targets || !r.measured_dimensions) continue;
    for (const [dim, t] of Object.entries(r.persona_targets)) {
      const measured = r.measured_dimensions[dim];
      if (measured === undefined) continue;
      const acc = (sums[dim] ??= { gap: 0, abs: 0, n: 0 });
      acc.gap += measured - t.target;
      acc.abs += Math.abs(measured - t.target);
      acc.n += 1;
    }
  }
  return Object.fromEntries(
    Object.entries(sums)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([dim, s]) => [dim, { mean_gap: round(s.gap / s.n, 3), mean_abs_gap: round(s.abs / s.n, 3), sessions: s.n }]),
  );
}

function driftOf(rows: ProgressRow[]): ProgressReport['style_drift'] {
  const checked = rows.filter((r) => r.persona_targets && r.measured_dimensions);
  const out: Record<string, number> = {};
  let consistent = 0;
  for (const r of checked) {
    let inBand = true;
    for (const [dim, t] of Object.entries(r.persona_targets!)) {
      const measured = r.measured_dimensions![dim];
      if (measured === undefined) continue;
      out[dim] ??= 0;
      if (Math.abs(measured - t.target) > t.tolerance) {
        out[dim] += 1;
        inBand = false;
      }
    }
    if (inBand) consistent += 1;
  }
  const perDimension = Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((dim) => [dim, { out_of_band: out[dim], rate: round(out[dim] / checked.length, 3) }]),
  );
  return {
    basis: DRIFT_BASIS,
    sessions_checked: checked.length,
    sessions_without_targets: rows.length - checked.length,
    consistent_sessions: consistent,
    consistency_rate: checked.length ? round(consistent / checked.length, 3) : null,
    per_dimension: perDimension,
    drifting_dimensions: Object.keys(perDimension).filter((dim) => perDimension[dim].rate > DRIFT_RATE),
  };
}

function improvementOf(report: Omit<ProgressReport, 'improvement'>): string {
  if (report.empty) return 'No scored session yet: run a paid POST /api/simulate session (store_text_for_training is optional) to start your history.';
  const worst = Object.entries(report.dimension_gaps).sort(([, a], [, b]) => b.mean_abs_gap - a.mean_abs_gap)[0];
  if (worst && worst[1].mean_abs_gap > 0) {
    const side = worst[1].mean_gap > 0 ? 'above' : 'below';
    return `On ${report.main_profile}, your replies sit ${side} the ${worst[0]} target by ${Math.abs(worst[1].mean_gap)} on average: adjust the system prompt on ${worst[0]} first.`;
  }
  if (report.trend?.direction === 'declining') return 'Your scores are declining: compare your latest prompt with the one of your best sessions.';
  return 'Keep your current prompt and test it against more profiles with POST /api/stress-test.';
}

/**
 * The progress report of a wallet's scored sessions (pure: the processor reads the ledger).
 * @param rows - the newest scored sessions of the wallet, oldest first (at most the window)
 * @param ctx - totals, the main profile and the peer comparison
 * @returns the report
 */
export function buildProgressReport(rows: ProgressRow[], ctx: ProgressContext): ProgressReport {
  const peers = ctx.peers;
  const report: Omit<ProgressReport, 'improvement'> = {
    empty: rows.length === 0,
    sessions: { total: ctx.total, in_report: rows.length, window: ctx.window },
    main_profile: ctx.mainProfile,
    history: rows.slice(-ctx.historyLimit).map(({ settled_at, product, profile, eq_score, passed }) => ({ settled_at, product, profile, eq_score, passed })),
    history_limit: ctx.historyLimit,
    trend: trendOf(rows),
    pass_streak: streaks(rows),
    percentile:
      ctx.mainProfile === null || !peers
        ? null
        : {
            profile: ctx.mainProfile,
            value: peers.otherBots === 0 ? null : round((100 * (peers.below + peers.ties / 2)) / peers.otherBots, 1),
            other_bots: peers.otherBots,
            basis: 'share of the other wallets on this profile whose average EQ score is below yours (ties count half); null when no other wallet used it',
          },
    dimension_gaps: gapsOf(rows, ctx.mainProfile),
    style_drift: driftOf(rows),
    not_a_factual_accuracy_check: ACCURACY_NOTE,
  };
  return { ...report, improvement: improvementOf(report) };
}
