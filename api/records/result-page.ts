import { escapeHtml, htmlPage } from '../http/html-page';
import { formatScore } from './certificate-page';
import type { PublicSession } from './public-row';

function settled(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

// The headline of a result: a scored session's EQ score and verdict; any other product says what
// it is instead of showing a figure that is no EQ score.
function headline(s: PublicSession): string {
  if (s.kind !== 'scored_session' || s.eq_score === null) {
    return `<p class="muted">A ${escapeHtml(s.label.toLowerCase())} is not scored against a profile, so it has no EQ score or verdict.</p>`;
  }
  const verdict = s.passed ? 'Passed' : 'Not passed';
  return `<div class="score" aria-label="EQ score">${escapeHtml(formatScore(s.eq_score))}</div>
<p class="muted">EQ score out of 100</p>
<span class="seal" data-verdict="${s.passed ? 'passed' : 'not-passed'}">${verdict}</span>`;
}

/**
 * A public result as a page for people (what a certificate's "Public result" link opens): the
 * same members as the JSON, no more. It shows the masked wallet only, and never a text, advice or
 * transaction, because the public result has none.
 * @param s - the public result
 * @returns the HTML document
 */
export function renderResultPage(s: PublicSession): string {
  const profile = s.profile?.name ?? null;
  const title = profile ? `${s.label}: ${profile}` : s.label;
  const rows: Array<[string, string]> = [
    ['Profile', profile ?? '-'],
    ['Product', s.tier ? `${s.label} (${s.tier})` : s.label],
    ['Wallet', s.wallet],
    ['Network', s.network],
    ['Settled', settled(s.settled_at)],
  ];
  const body = `<article class="card">
<span class="muted">Public result</span>
<h1>${escapeHtml(title)}</h1>
${headline(s)}
<dl>
${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}
</dl>
<p class="muted">A settled, paid call on the public ledger. Result ${escapeHtml(s.result_id)}.</p>
</article>
<p class="muted"><a href="/api/scoreboard">Scoreboard</a> · <a href="/live">Live sessions</a></p>`;
  return htmlPage({ title: `humanlike: ${title}`, body });
}
