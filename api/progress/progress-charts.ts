import type { ProgressReport } from '../../jobs';
import { escapeHtml } from '../http/html-page';

/** The charts of a progress report: standalone SVG documents, or null when there is nothing to draw. */
export interface ProgressCharts {
  /** Each scored session's EQ score in order, passes and fails marked, with the least-squares line. */
  trend_svg: string | null;
  /** Mean measured - target per text dimension on the main profile, as bars either side of zero. */
  dimension_gaps_svg: string | null;
}

// The house colours of the pages (api/http/html-page.ts), fixed: an SVG opened alone has no page around it.
const INK = '#1c2430';
const MUTED = '#5b6675';
const LINE = '#d9cfb8';
const PAPER = '#fbf8f1';
const PASS = '#1f6f5c';
const FAIL = '#a23b2a';
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"';

const round = (n: number) => Math.round(n * 10) / 10;

function svg(width: number, height: number, title: string, parts: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" ${FONT}>` +
    `<title>${escapeHtml(title)}</title><rect width="${width}" height="${height}" fill="${PAPER}"/>${parts.join('')}</svg>`
  );
}

function leastSquares(ys: number[]): { slope: number; intercept: number } {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  const slope = den === 0 ? 0 : num / den;
  return { slope, intercept: my - slope * mx };
}

/**
 * The trend chart: EQ score (0-100) per scored session, oldest first.
 * @param report - the progress report
 * @returns the SVG, or null without sessions
 */
export function trendChart(report: ProgressReport): string | null {
  const scores = report.history.map((s) => s.eq_score);
  if (scores.length === 0) return null;
  const [width, height, left, right, top, bottom] = [640, 260, 40, 16, 36, 28];
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const x = (i: number) => round(left + (scores.length === 1 ? plotW / 2 : (i * plotW) / (scores.length - 1)));
  const y = (v: number) => round(top + plotH - (Math.max(0, Math.min(100, v)) * plotH) / 100);
  const parts: string[] = [];
  for (const v of [0, 50, 100]) {
    parts.push(`<line x1="${left}" x2="${width - right}" y1="${y(v)}" y2="${y(v)}" stroke="${LINE}"/>`);
    parts.push(`<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="${MUTED}">${v}</text>`);
  }
  const trend = report.trend;
  const heading = trend
    ? `EQ score per session: ${trend.direction} (${trend.slope_per_session >= 0 ? '+' : ''}${trend.slope_per_session} per session)`
    : 'EQ score per session';
  parts.push(`<text x="${left}" y="20" font-size="14" font-weight="600" fill="${INK}">${escapeHtml(heading)}</text>`);
  if (scores.length > 1) {
    parts.push(`<polyline data-series="scores" fill="none" stroke="${MUTED}" stroke-width="1.5" points="${scores.map((v, i) => `${x(i)},${y(v)}`).join(' ')}"/>`);
    const fit = leastSquares(scores);
    const end = scores.length - 1;
    parts.push(`<line data-series="trend" x1="${x(0)}" y1="${y(fit.intercept)}" x2="${x(end)}" y2="${y(fit.intercept + fit.slope * end)}" stroke="${INK}" stroke-width="2" stroke-dasharray="6 4"/>`);
  }
  report.history.forEach((s, i) => {
    const colour = s.passed === true ? PASS : s.passed === false ? FAIL : MUTED;
    const verdict = s.passed === true ? 'passed' : s.passed === false ? 'not passed' : 'no verdict';
    parts.push(`<circle cx="${x(i)}" cy="${y(s.eq_score)}" r="4" fill="${colour}"><title>${escapeHtml(`${s.settled_at.slice(0, 10)}: ${s.eq_score} (${verdict})`)}</title></circle>`);
  });
  parts.push(`<text x="${left}" y="${height - 8}" font-size="11" fill="${MUTED}">oldest</text>`);
  parts.push(
    `<text x="${width - right}" y="${height - 8}" text-anchor="end" font-size="11" fill="${MUTED}">newest · ` +
      `<tspan fill="${PASS}">●</tspan> passed <tspan fill="${FAIL}">●</tspan> not passed · dashed: trend</text>`,
  );
  return svg(width, height, `${heading}, ${scores.length} sessions`, parts);
}

/**
 * The dimension-gaps chart: one bar per text dimension, left of zero below the target, right above.
 * @param report - the progress report
 * @returns the SVG, or null without gaps
 */
export function dimensionGapsChart(report: ProgressReport): string | null {
  const gaps = Object.entries(report.dimension_gaps);
  if (gaps.length === 0) return null;
  const [width, left, right, top, rowH, valueRoom] = [640, 110, 16, 40, 30, 52];
  const height = top + gaps.length * rowH + 30;
  const zero = left + (width - left - right) / 2;
  // Each side keeps room for its value label, so a long bar never runs into the dimension names.
  const half = (width - left - right) / 2 - valueRoom;
  const scale = Math.max(0.1, ...gaps.map(([, g]) => Math.abs(g.mean_gap))) * 1.1;
  const heading = `Measured minus target on ${report.main_profile ?? 'the main profile'}`;
  const parts = [
    `<text x="16" y="22" font-size="14" font-weight="600" fill="${INK}">${escapeHtml(heading)}</text>`,
    `<line x1="${zero}" x2="${zero}" y1="${top - 6}" y2="${height - 24}" stroke="${MUTED}"/>`,
    `<text x="${zero - 6}" y="${height - 8}" text-anchor="end" font-size="11" fill="${MUTED}">below the target</text>`,
    `<text x="${zero + 6}" y="${height - 8}" font-size="11" fill="${MUTED}">above the target</text>`,
  ];
  gaps.forEach(([dimension, g], i) => {
    const mid = top + i * rowH + rowH / 2;
    const w = round((Math.abs(g.mean_gap) / scale) * half);
    const x = g.mean_gap < 0 ? round(zero - w) : zero;
    const value = `${g.mean_gap > 0 ? '+' : ''}${g.mean_gap}`;
    parts.push(`<text x="${left - 8}" y="${mid + 4}" text-anchor="end" font-size="12" fill="${INK}">${escapeHtml(dimension)}</text>`);
    parts.push(
      `<rect data-dimension="${escapeHtml(dimension)}" x="${x}" y="${mid - 9}" width="${w}" height="18" rx="3" fill="${PASS}">` +
        `<title>${escapeHtml(`${dimension}: ${value} over ${g.sessions} sessions`)}</title></rect>`,
    );
    const labelX = g.mean_gap < 0 ? round(zero - w - 6) : round(zero + w + 6);
    parts.push(`<text x="${labelX}" y="${mid + 4}" text-anchor="${g.mean_gap < 0 ? 'end' : 'start'}" font-size="11" fill="${MUTED}">${escapeHtml(value)}</text>`);
  });
  return svg(width, height, `${heading}: ${gaps.map(([d, g]) => `${d} ${g.mean_gap}`).join(', ')}`, parts);
}

/**
 * Both charts of a report.
 * @param report - the progress report
 * @returns the charts
 */
export function progressCharts(report: ProgressReport): ProgressCharts {
  return { trend_svg: trendChart(report), dimension_gaps_svg: dimensionGapsChart(report) };
}
