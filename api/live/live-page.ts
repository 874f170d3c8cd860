import { createHash } from 'node:crypto';
import { PROFILES } from '../../shared/profiles';

// The live dashboard: one static document with its CSS and script inline (no build step, no
// external asset). It reads only public endpoints from the browser: the feed (server-sent events),
// the leaderboard and the statistics. Data is written with textContent only, never as HTML.

const STYLE = `
:root { color-scheme: light dark; --ink: #1c2430; --muted: #5b6675; --paper: #fbf8f1; --card: #ffffff; --line: #ded5c0;
  --accent: #1f6f5c; --pass: #1f6f5c; --fail: #a23b2a; --fresh: #fff3c4; }
@media (prefers-color-scheme: dark) { :root { --ink: #ece7dc; --muted: #a9b1bc; --paper: #14181d; --card: #1c2128; --line: #343c48;
  --accent: #5fc4a8; --pass: #5fc4a8; --fail: #f08a78; --fresh: #3a3520; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--paper); }
a { color: var(--accent); }
header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem 1rem;
  padding: 1rem 1.25rem; border-bottom: 1px solid var(--line); }
h1 { margin: 0; font: 600 1.35rem/1.2 Georgia, "Times New Roman", serif; }
h1 span { color: var(--muted); font-weight: 400; }
h2 { margin: 0 0 .6rem; font-size: 1rem; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
.status { display: inline-flex; align-items: center; gap: .45rem; font-size: .9rem; color: var(--muted); }
.status::before { content: ""; width: .6rem; height: .6rem; border-radius: 50%; background: var(--muted); }
.status[data-state="live"]::before { background: var(--pass); box-shadow: 0 0 0 3px color-mix(in srgb, var(--pass) 25%, transparent); }
.status[data-state="down"]::before { background: var(--fail); }
main { display: grid; gap: 1.25rem; padding: 1.25rem; max-width: 72rem; margin: 0 auto; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 56rem) { main { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); } }
section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1rem; min-width: 0; }
.tiles { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .6rem; margin: 0; }
.tiles div { border: 1px solid var(--line); border-radius: 10px; padding: .55rem .7rem; }
.tiles dt { font-size: .8rem; color: var(--muted); }
.tiles dd { margin: 0; font-size: 1.45rem; font-weight: 700; font-variant-numeric: tabular-nums; }
ol.feed { list-style: none; margin: 0; padding: 0; }
ol.feed li { display: grid; grid-template-columns: 4.2rem minmax(0, 1fr) auto; gap: .15rem .75rem; align-items: center;
  padding: .6rem .4rem; border-bottom: 1px solid var(--line); border-radius: 8px; }
ol.feed li.fresh { background: var(--fresh); }
@media (prefers-reduced-motion: no-preference) { ol.feed li.fresh { transition: background 4s ease-out; } }
.score { grid-row: span 2; font-size: 1.6rem; font-weight: 700; text-align: right; font-variant-numeric: tabular-nums; }
.profile { font-weight: 600; overflow-wrap: anywhere; }
.meta { color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
.badge { grid-row: span 2; font-size: .75rem; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; padding: .15rem .5rem;
  border-radius: 999px; border: 1px solid currentColor; }
.badge.pass { color: var(--pass); } .badge.fail { color: var(--fail); } .badge.none { color: var(--muted); }
table { width: 100%; border-collapse: collapse; font-size: .95rem; }
th, td { padding: .4rem .3rem; border-bottom: 1px solid var(--line); text-align: left; }
th { font-size: .8rem; color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.wallet { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: .85rem; }
.empty { color: var(--muted); }
aside { display: grid; gap: 1.25rem; align-content: start; min-width: 0; }
footer { padding: 0 1.25rem 1.5rem; text-align: center; color: var(--muted); font-size: .9rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

const PROFILE_NAMES = JSON.stringify(Object.fromEntries(PROFILES.map((p) => [p.id, p.name])));

// Plain ES2020, run as is by any current browser. `</` never occurs in it, so it cannot end the
// script element early.
const SCRIPT = `
(() => {
  'use strict';
  const PROFILES = ${PROFILE_NAMES};
  const MAX_ROWS = 50;
  const FRESH_MS = 60000;
  const feed = document.getElementById('feed');
  const status = document.getElementById('status');
  const seen = new Set();
  let boardCacheSeconds = 10;
  const node = (tag, className, text) => {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  const profileName = (id) => (id ? PROFILES[id] || id : 'No profile');
  const score = (n) => (typeof n === 'number' ? n.toFixed(1) : '-');
  // Atomic units as money: every significant decimal, at least two (0.075 USDC, 42.50 USDC).
  const money = (n, decimals, min) => {
    const text = (n / 10 ** decimals).toFixed(decimals).replace(/0+$/, '');
    const [whole, frac = ''] = text.split('.');
    return whole + '.' + frac.padEnd(min, '0');
  };
  const amount = (ev) => {
    const n = Number(ev.amount);
    if (!Number.isFinite(n)) return '';
    if (ev.network.startsWith('eip155:')) return money(n, 6, 2) + ' USDC';
    if (ev.network.startsWith('solana:')) return money(n, 9, 4) + ' SOL';
    return ev.amount;
  };
  const clock = (iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const setStatus = (state, text) => {
    status.dataset.state = state;
    status.textContent = text;
  };

  function addSettlement(ev) {
    if (seen.has(ev.ledger_id)) return;
    seen.add(ev.ledger_id);
    document.getElementById('feed-empty').hidden = true;
    const li = node('li');
    li.dataset.resultId = ev.result_id;
    // Only a scored session (simulate, duel leg) has an EQ score and a verdict; anything else is
    // shown as what was bought, under its label.
    const scored = ev.kind === 'scored_session';
    li.dataset.kind = ev.kind || 'purchase';
    const verdict = scored && ev.passed === true ? 'pass' : scored && ev.passed === false ? 'fail' : 'none';
    const s = node('span', 'score', scored ? score(ev.score) : '');
    if (scored) s.setAttribute('aria-label', 'EQ score ' + score(ev.score));
    const who = node('a', 'profile', scored ? profileName(ev.profile) : ev.label || ev.product);
    who.href = '/api/results/' + encodeURIComponent(ev.result_id);
    const what = scored ? ev.label || ev.product : ev.profile ? profileName(ev.profile) : '';
    const tier = ev.tier ? what + ' (' + ev.tier + ')' : what;
    const meta = node('span', 'meta', [tier, ev.payer, amount(ev), clock(ev.settled_at)].filter(Boolean).join(' · '));
    const badge = node('span', 'badge ' + verdict, scored ? verdict : ev.kind || 'purchase');
    li.append(s, who, badge, meta);
    if (Date.now() - Date.parse(ev.settled_at) < FRESH_MS) {
      li.classList.add('fresh');
      setTimeout(() => li.classList.remove('fresh'), 400);
    }
    feed.prepend(li);
    while (feed.children.length > MAX_ROWS) feed.lastElementChild.remove();
  }

  async function getJson(url) {
    const res = await fetch(url, { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(url + ' answered ' + res.status);
    return res.json();
  }

  async function refreshStats() {
    const st = await getJson('/api/stats');
    const rate = st.pass_rate === null ? '-' : (st.pass_rate * 100).toFixed(1) + '%';
    document.getElementById('stat-total').textContent = String(st.sessions.total);
    document.getElementById('stat-24h').textContent = String(st.sessions.last_24h);
    document.getElementById('stat-rate').textContent = rate;
    document.getElementById('stat-wallets').textContent = String(st.active_wallets.last_24h);
  }

  async function refreshBoard() {
    const board = await getJson('/api/leaderboard?limit=10');
    boardCacheSeconds = board.cache_seconds;
    const body = document.getElementById('board');
    body.replaceChildren();
    for (const e of board.entries) {
      const tr = node('tr');
      tr.append(node('td', 'num', String(e.rank)), node('td', 'wallet', e.wallet), node('td', '', profileName(e.profile && e.profile.id)), node('td', 'num', score(e.best_score)));
      body.append(tr);
    }
    document.getElementById('board-empty').hidden = board.entries.length > 0;
  }

  const refreshAll = () => Promise.allSettled([refreshStats(), refreshBoard()]);
  let pending;
  let followUp;
  // The leaderboard is cached on the server for cache_seconds: ask again once that has passed, so
  // a new best score shows without waiting for the periodic refresh.
  const refreshSoon = () => {
    clearTimeout(pending);
    clearTimeout(followUp);
    pending = setTimeout(refreshAll, 500);
    followUp = setTimeout(() => refreshBoard().catch(() => undefined), (boardCacheSeconds + 1) * 1000);
  };

  function connect() {
    const source = new EventSource('/api/feed?recent=20');
    source.addEventListener('open', () => setStatus('live', 'Live'));
    source.addEventListener('settlement', (message) => {
      try {
        addSettlement(JSON.parse(message.data));
      } catch (err) {
        return;
      }
      refreshSoon();
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        // Refused (e.g. too many open streams): the browser will not retry by itself.
        setStatus('down', 'Disconnected; retrying in 30 s');
        setTimeout(connect, 30000);
      } else {
        setStatus('connecting', 'Reconnecting…');
      }
    });
  }

  refreshAll();
  setInterval(refreshAll, 30000);
  connect();
})();
`;

const FAVICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#1f6f5c"/></svg>',
)}`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The page's Content-Security-Policy: nothing loads but the page itself, its one inline style and
 * its one inline script (allowed by their hashes, so the page stays static and cacheable), and
 * requests back to this origin (the feed and the JSON it reads).
 */
export const LIVE_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  // data: for the inline favicon (without one the browser asks for /favicon.ico, a 404).
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The live dashboard document. */
export const LIVE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="Paid human-likeness scoring sessions settling live, with the leaderboard and statistics.">
<title>humanlike · live</title>
<link rel="icon" href="${FAVICON}">
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>humanlike <span>live</span></h1>
<p id="status" class="status" role="status" aria-live="polite" data-state="connecting">Connecting…</p>
</header>
<main>
<section aria-labelledby="feed-title">
<h2 id="feed-title">Settled payments</h2>
<p id="feed-empty" class="empty">No settled payments yet. New ones appear here as they settle.</p>
<ol id="feed" class="feed" aria-live="polite" aria-relevant="additions" aria-label="Settled payments, newest first"></ol>
</section>
<aside>
<section aria-labelledby="stats-title">
<h2 id="stats-title">Statistics</h2>
<dl class="tiles">
<div><dt>Sessions</dt><dd id="stat-total">-</dd></div>
<div><dt>Last 24 hours</dt><dd id="stat-24h">-</dd></div>
<div><dt>Pass rate</dt><dd id="stat-rate">-</dd></div>
<div><dt>Wallets, 24 hours</dt><dd id="stat-wallets">-</dd></div>
</dl>
</section>
<section aria-labelledby="board-title">
<h2 id="board-title">Leaderboard</h2>
<table>
<caption class="visually-hidden">Best EQ score per wallet</caption>
<thead><tr><th class="num" scope="col">#</th><th scope="col">Wallet</th><th scope="col">Profile</th><th class="num" scope="col">Best</th></tr></thead>
<tbody id="board"></tbody>
</table>
<p id="board-empty" class="empty">No scored sessions yet.</p>
</section>
</aside>
</main>
<footer>
<a href="/api/scoreboard">Scoreboard</a> · <a href="/api/community-review/summary">Community review</a> · <a href="/api/openapi.json">API</a>
</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
