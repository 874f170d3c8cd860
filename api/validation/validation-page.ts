import type { PublicFigure, PublicValidation } from './validation-view';
import { escapeHtml, htmlPage } from '../http/html-page';

/** A figure as the page prints it: three decimals, or "not measurable" where the data cannot give one. */
export function formatFigure(value: number | null): string {
  return value === null ? 'not measurable' : value.toFixed(3);
}

// The shared layout, wider for the tables, with a colour for a missed bar.
const STYLE = `
  :root { --miss: #a3412a; } @media (prefers-color-scheme: dark) { :root { --miss: #e08a6f; } }
  main { max-width: 60rem; } body { font-size: 15px; }
  th, td { vertical-align: top; } td.num, th.num { white-space: nowrap; }
  .met { color: var(--accent); font-weight: 600; white-space: nowrap; } .missed { color: var(--miss); font-weight: 600; white-space: nowrap; }
  code { font-size: .95em; } .table-wrap { overflow-x: auto; }
`;

function rowsOf(figures: PublicFigure[]): string {
  return figures
    .map((f) => {
      const verdict = f.pass === null ? '' : f.pass ? '<span class="met">met</span>' : '<span class="missed">not met</span>';
      return (
        `<tr><td>${escapeHtml(f.metric)}</td><td>${escapeHtml(f.dataset)}</td><td class="num">${f.n}</td>` +
        `<td class="num">${formatFigure(f.value)}</td><td class="num">${escapeHtml(f.target ?? '')}</td><td>${verdict}</td></tr>`
      );
    })
    .join('\n');
}

function table(figures: PublicFigure[]): string {
  return (
    '<div class="table-wrap"><table><thead><tr><th>measure</th><th>data</th><th class="num">n</th><th class="num">figure</th><th class="num">bar</th><th></th></tr></thead>' +
    `<tbody>\n${rowsOf(figures)}\n</tbody></table></div>`
  );
}

/**
 * The public validation page: every figure of the last `npm run eval`, by dimension, the data each
 * came from and the command that reproduces them (inline CSS, no script).
 * @param v - the JSON twin (publicValidation)
 * @returns the HTML document
 */
export function renderValidationPage(v: PublicValidation): string {
  const stale = v.current
    ? ''
    : '<p class="missed">These figures were printed by an earlier engine than the one this service runs; they are shown as printed.</p>';
  const barred = v.dimensions.flatMap((d) => d.out_of_domain.filter((f) => f.pass !== null));
  const summary = barred.length ? `<h2>The bars, out of domain</h2>${table(barred)}` : '';
  const sections = v.dimensions
    .map((d) => {
      const data = d.data.map((s) => `<li><code>${escapeHtml(s.folder)}</code>: ${escapeHtml(s.title)}</li>`).join('');
      const ood = d.out_of_domain.length ? `<h3>Out of domain</h3>${table(d.out_of_domain)}` : '';
      const ind = d.in_domain.length ? `<details><summary>In domain, for comparison (${d.in_domain.length})</summary>${table(d.in_domain)}</details>` : '';
      return `<section id="${escapeHtml(d.dimension)}"><h2>${escapeHtml(d.dimension.replace(/_/g, ' '))}</h2>${ood}${ind}<p class="muted">Data:</p><ul>${data}</ul></section>`;
    })
    .join('\n');
  return htmlPage({
    title: 'How far the scores hold: validation',
    head: '<link rel="alternate" type="application/json" href="/api/validation.json">',
    style: STYLE,
    body: `<h1>How far the scores hold</h1>
<p>Each dimension's figures against human judgements, <strong>out of domain</strong> first: on a source, genre or generator
the fit never read (each source held out in turn, the rest fitted). In-domain figures follow for comparison. Scorer
<code>${escapeHtml(v.scorer_version)}</code>; ${v.bars_met} of ${v.bars} bars met.</p>
${stale}
<p>Reproduce: <code>${escapeHtml(v.command)}</code>. ${escapeHtml(v.how_to_reproduce)}</p>
<p>Machine-readable: <a href="/api/validation.json">/api/validation.json</a>. How far the program's human raters agree with each
other and with the engine, live: <a href="${escapeHtml(v.human_agreement)}">${escapeHtml(v.human_agreement)}</a>.</p>
${summary}
${sections}`,
  });
}
