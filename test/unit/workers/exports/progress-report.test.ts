import { expect } from 'chai';
import { buildProgressReport, type ProgressRow } from '../../../../workers/exports/progress-report';

function rows(scores: number[], withTargets: boolean): ProgressRow[] {
  return scores.map((eq_score, i) => ({
    settled_at: `2026-01-01 00:${String(i).padStart(2, '0')}:00+00`,
    product: 'simulate',
    profile: 'dry-witted-colleague',
    eq_score,
    passed: eq_score >= 70,
    persona_targets: withTargets ? { hesitation: { target: 0.3, tolerance: 0.05 } } : null,
    measured_dimensions: withTargets ? { hesitation: 0.2 } : null,
  }));
}

const ctx = { total: 6, window: 1000, historyLimit: 50, mainProfile: 'dry-witted-colleague' };

describe('buildProgressReport', function () {
  it('reads a falling series as declining and leaves the percentile null when no other bot used the profile', function () {
    const report = buildProgressReport(rows([90, 85, 80, 72, 60, 50], true), { ...ctx, peers: { otherBots: 0, below: 0, ties: 0 } });
    expect(report.trend).to.include({ direction: 'declining', first_average: 85, last_average: 60.67, compared: 3 });
    expect(report.pass_streak).to.deep.equal({ current: 0, best: 4 });
    expect(report.percentile).to.include({ value: null, other_bots: 0 });
    expect(report.dimension_gaps).to.deep.equal({ hesitation: { mean_gap: -0.1, mean_abs_gap: 0.1, sessions: 6 } });
    expect(report.style_drift).to.include({ sessions_checked: 6, consistent_sessions: 0, consistency_rate: 0 });
    expect(report.style_drift.drifting_dimensions).to.deep.equal(['hesitation']);
    expect(report.improvement).to.match(/below the hesitation target by 0\.1/);
  });

  it('cannot check drift on sessions settled before targets were recorded, and says so with a null rate', function () {
    const report = buildProgressReport(rows([70, 70], false), { ...ctx, total: 2, peers: { otherBots: 4, below: 1, ties: 2 } });
    expect(report.trend).to.include({ direction: 'flat', slope_per_session: 0 });
    expect(report.percentile).to.include({ value: 50, other_bots: 4 });
    expect(report.style_drift).to.include({ sessions_checked: 0, sessions_without_targets: 2, consistency_rate: null });
    expect(report.dimension_gaps).to.deep.equal({});
  });
});
