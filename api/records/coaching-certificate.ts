import type { CoachingCertificateRecord } from '../../shared/coaching/certificate';
import { day, formatScore, shareHead } from './certificate-page';
import { escapeHtml, htmlPage } from '../http/html-page';

/** The public certificate of a completed coaching pack, as JSON. */
export interface CoachingCertificate {
  certificate: {
    kind: 'coaching';
    title: string;
    description: string;
    url: string;
    image_url: string;
  };
  coaching: CoachingCertificateRecord;
}

/**
 * The certificate of a completed coaching pack: title, description and addresses, around the
 * frozen public record (masked wallet, bars and best scores; no secret, no text).
 * @param record - the stored record
 * @param urls - the certificate's own URL and its image URL
 * @returns the certificate body
 */
export function buildCoachingCertificate(record: CoachingCertificateRecord, urls: { url: string; imageUrl: string }): CoachingCertificate {
  return {
    certificate: {
      kind: 'coaching',
      title: `Coaching certificate: ${record.pack_name}`,
      description:
        `An AI agent (wallet ${record.wallet}) cleared all ${record.drills.length} drills of the ${record.pack_name} pack ` +
        `with an average EQ score of ${formatScore(record.average_score)} (bar ${formatScore(record.average_bar)}) on ${day(record.certified_at)}.`,
      url: urls.url,
      image_url: urls.imageUrl,
    },
    coaching: record,
  };
}

/**
 * The coaching certificate as a shareable HTML page, with the session certificate's share tags and look.
 * @param cert - the certificate
 * @returns the HTML document
 */
export function renderCoachingCertificatePage(cert: CoachingCertificate): string {
  const { certificate: c, coaching: r } = cert;
  const drills = r.drills
    .map((d) => `<tr><td>${escapeHtml(d.title)}</td><td>${escapeHtml(d.target_profile)}</td><td class="num">${escapeHtml(formatScore(d.best_score))}</td><td class="num">${escapeHtml(formatScore(d.bar))}</td></tr>`)
    .join('\n');
  const rows: Array<[string, string]> = [
    ['Pack', r.pack_name],
    ['Wallet', r.wallet],
    ['Average bar', formatScore(r.average_bar)],
    ['Attempts used', String(r.attempts_used)],
    ['Certified', r.certified_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
  ];
  const body = `<article class="card">
<span class="seal">Coaching complete</span>
<h1>${escapeHtml(r.pack_name)}</h1>
<p class="muted">This AI agent cleared every drill's bar and the pack's average bar.</p>
<div class="score" aria-label="Average EQ score">${escapeHtml(formatScore(r.average_score))}</div>
<p class="muted">Average best EQ score out of 100</p>
<table>
<thead><tr><th>Drill</th><th>Profile</th><th class="num">Best</th><th class="num">Bar</th></tr></thead>
<tbody>
${drills}
</tbody>
</table>
<dl>
${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}
</dl>
<p><a href="${escapeHtml(c.image_url)}">Share image</a></p>
</article>`;
  return htmlPage({ title: c.title, head: shareHead(c), body });
}

/**
 * The coaching certificate's share image (1200 x 630) as SVG.
 * @param r - the stored record
 * @returns the SVG document
 */
export function renderCoachingCertificateImage(r: CoachingCertificateRecord): string {
  const pack = escapeHtml(r.pack_name);
  const score = escapeHtml(formatScore(r.average_score));
  const footer = escapeHtml(`${r.wallet} · ${r.drills.length} drills cleared · ${day(r.certified_at)}`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img" aria-label="Coaching certificate: ${pack}, average EQ ${score}">
  <rect width="1200" height="630" fill="#fbf8f1"/>
  <rect x="30" y="30" width="1140" height="570" rx="28" fill="none" stroke="#d9cfb8" stroke-width="4"/>
  <rect x="46" y="46" width="1108" height="538" rx="20" fill="none" stroke="#1f6f5c" stroke-width="2"/>
  <text x="600" y="140" text-anchor="middle" font-family="system-ui, sans-serif" font-size="30" letter-spacing="6" fill="#1f6f5c">COACHING COMPLETE</text>
  <text x="600" y="235" text-anchor="middle" font-family="Georgia, serif" font-size="64" fill="#1c2430">${pack}</text>
  <text x="600" y="405" text-anchor="middle" font-family="system-ui, sans-serif" font-size="150" font-weight="700" fill="#1f6f5c">${score}</text>
  <text x="600" y="455" text-anchor="middle" font-family="system-ui, sans-serif" font-size="28" fill="#5b6675">Average best EQ score out of 100</text>
  <text x="600" y="540" text-anchor="middle" font-family="system-ui, sans-serif" font-size="26" fill="#5b6675">${footer}</text>
</svg>
`;
}
