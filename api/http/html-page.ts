/**
 * Escapes text for HTML content and double-quoted attributes (and so for SVG too).
 * @param value - any text
 * @returns the escaped text
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const STYLE = `
  :root { color-scheme: light dark; --ink: #1c2430; --muted: #5b6675; --paper: #fbf8f1; --line: #d9cfb8; --accent: #1f6f5c; }
  @media (prefers-color-scheme: dark) { :root { --ink: #ece7dc; --muted: #a9b1bc; --paper: #171b21; --line: #3a4250; --accent: #5fc4a8; } }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--paper); }
  main { max-width: 44rem; margin: 0 auto; padding: 1.25rem; }
  h1 { font-family: Georgia, "Times New Roman", serif; font-weight: 600; line-height: 1.2; }
  .card { border: 2px solid var(--line); border-radius: 14px; padding: 1.5rem; text-align: center; }
  .card h1 { font-size: clamp(1.6rem, 6vw, 2.4rem); margin: .25rem 0 .75rem; }
  .seal { display: inline-block; padding: .2rem .8rem; border: 1px solid var(--accent); border-radius: 999px; color: var(--accent);
          letter-spacing: .12em; text-transform: uppercase; font-size: .8rem; }
  .score { font-size: clamp(3rem, 16vw, 5rem); font-weight: 700; color: var(--accent); line-height: 1; margin: .5rem 0; }
  .muted { color: var(--muted); }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .35rem 1rem; text-align: left; margin: 1.25rem auto 0; max-width: 26rem; }
  dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
  table { width: 100%; border-collapse: collapse; margin: .5rem 0 1.5rem; }
  th, td { padding: .45rem .35rem; border-bottom: 1px solid var(--line); text-align: left; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  .tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .75rem; margin: 1rem 0 1.5rem; }
  .tile { border: 1px solid var(--line); border-radius: 10px; padding: .75rem; }
  .tile b { display: block; font-size: 1.6rem; }
  a { color: var(--accent); }
  h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  pre { margin: .5rem 0 1rem; padding: .75rem; border: 1px solid var(--line); border-radius: 10px; white-space: pre-wrap;
        overflow-wrap: anywhere; font: .85rem/1.45 ui-monospace, "SFMono-Regular", Menlo, monospace; }
  figure { margin: .5rem 0 1.5rem; } figure svg { display: block; width: 100%; height: auto; }
  figcaption { color: var(--muted); font-size: .9rem; }
  .chart { display: block; color: var(--accent); margin-top: .2rem; } .chart svg { display: block; max-width: 100%; height: auto; }
`;

/**
 * A complete, self-contained HTML page (inline CSS, no script, no build step), readable on a phone.
 * @param page - the title (escaped here), the already-escaped head tags and body, and the page's
 *   own CSS after the shared rules (a wider page, a colour of its own)
 * @returns the document
 */
export function htmlPage(page: { title: string; head?: string; body: string; style?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
${page.head ?? ''}
<style>${STYLE}${page.style ?? ''}</style>
</head>
<body>
<main>
${page.body}
</main>
</body>
</html>
`;
}
