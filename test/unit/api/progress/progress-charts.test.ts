import { expect } from 'chai';
import { progressCharts } from '../../../../api/progress/progress-charts';
import type { ProgressReport } from '../../../../jobs';

const empty: ProgressReport = {
  empty: true,
  sessions: { total: 0, in_report: 0, window: 50 },
  main_profile: null,
  history: [],
  history_limit: 50,
  trend: null,
  pass_streak: { current: 0, best: 0 },
  percentile: null,
  dimension_gaps: {},
  style_drift: { basis: '', sessions_checked: 0, sessions_without_targets: 0, consistent_sessions: 0, consistency_rate: null, per_dimension: {}, drifting_dimensions: [] },
  not_a_factual_accuracy_check: '',
  improvement: '',
};

describe('progressCharts', function () {
  it('draws nothing for a wallet without scored sessions', function () {
    expect(progressCharts(empty)).to.deep.equal({ trend_svg: null, dimension_gaps_svg: null });
  });

  it('draws a single session as one point, and escapes every name it writes', function () {
    const report: ProgressReport = {
      ...empty,
      empty: false,
      main_profile: 'a<b>&"c',
      history: [{ settled_at: '2026-01-01T00:00:00Z', product: 'simulate', profile: 'x', eq_score: 70, passed: true }],
      dimension_gaps: { 'em<pathy': { mean_gap: -0.2, mean_abs_gap: 0.2, sessions: 1 } },
    };
    const charts = progressCharts(report);
    expect(charts.trend_svg!.match(/<circle /g)).to.have.length(1);
    expect(charts.trend_svg).to.not.include('<polyline');
    expect(charts.dimension_gaps_svg).to.include('on a&lt;b&gt;&amp;&quot;c').and.include('data-dimension="em&lt;pathy"').and.not.include('a<b>');
  });
});
