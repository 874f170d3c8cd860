import { day, formatScore } from './certificate-page';
import { escapeHtml, htmlPage } from '../http/html-page';
import type { Scoreboard } from './scoreboard';
import { renderScoreHistogram } from './score-histogram';

function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`;
}

/**
 * The scoreboard as a small HTML page readable on a phone (no script, inline CSS).
 * @param board - the scoreboard
 * @returns the HTML document
 */
export function renderScoreboardPage(board: Scoreboard): string {
  const tiles = [
    ['Sessions', String(board.sessions)],
    ['Scored', String(board.scored_sessions)],
    ['Passed', String(board.passed_sessions)],
    ['Pass rate', percent(board.pass_rate)],
  ]
    .map(([label, value]) => `<div class="tile"><span class="muted">${escapeHtml(label)}</span><b>${escapeHtml(value)}</b></div>`)
    .join('\n');
  const profiles =
    board.profiles.length === 0
      ? '<p class="muted">No scored sessions yet.</p>'
      : `<table><thead><tr><th>Profile and its scores, 0 to 100</th><th class="num">Best</th><th class="num">Passed</th><th class="num">Sessions</th></tr></thead><tbody>
${board.profiles
  .map(
    (p) =>
      `<tr><td>${escapeHtml(p.profile.name)}<span class="chart">${renderScoreHistogram(p.profile.name, p.score_distribution)}</span></td>` +
      `<td class="num">${escapeHtml(formatScore(p.best_score))}</td><td class="num">${p.passed}</td><td class="num">${p.sessions}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`;
  const passes =
    board.recent_passes.length === 0
      ? '<p class="muted">No passes yet.</p>'
      : `<table><thead><tr><th>Profile</th><th class="num">EQ</th><th>Wallet</th><th>Day</th></tr></thead><tbody>
${board.recent_passes
  .map(
    (s) =>
      `<tr><td><a href="/api/results/${escapeHtml(s.result_id)}">${escapeHtml(s.profile?.name ?? '-')}</a></td>` +
      `<td class="num">${escapeHtml(s.eq_score === null ? '-' : formatScore(s.eq_score))}</td>` +
      `<td>${escapeHtml(s.wallet)}</td><td>${escapeHtml(day(s.settled_at))}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`;
  const body = `<h1>Scoreboard</h1>
<p class="muted">Settled paid sessions on the ledger, as of ${escapeHtml(board.generated_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}.</p>
<div class="tiles">
${tiles}
</div>
<h2>Best score per profile</h2>
${profiles}
<h2>Recent passes</h2>
${passes}
<p class="muted"><a href="/api/leaderboard">Leaderboard (JSON)</a> · <a href="/api/stats">Statistics (JSON)</a></p>`;
  return htmlPage({ title: 'humanlike scoreboard', body });
}
