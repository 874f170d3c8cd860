import { escapeHtml, htmlPage } from '../http/html-page';
import type { PublicSession } from './public-row';

/** The public certificate of a passed session, as JSON. */
export interface Certificate {
  certificate: {
    title: string;
    description: string;
    /** This certificate's own address. */
    url: string;
    /** The share image as PNG (share crawlers mostly ignore SVG). */
    image_url: string;
    svg_image_url: string;
    result_url: string;
  };
  session: PublicSession;
}

/**
 * The certificate of a passed session: its title, description and addresses.
 * @param session - the passed session
 * @param urls - the certificate's own URL, its PNG and SVG image URLs and the public result's URL
 * @returns the certificate body
 */
export function buildCertificate(session: PublicSession, urls: { url: string; imageUrl: string; svgImageUrl: string; resultUrl: string }): Certificate {
  const profile = session.profile?.name ?? 'a human profile';
  const score = session.eq_score === null ? '' : ` with an EQ score of ${formatScore(session.eq_score)}`;
  return {
    certificate: {
      title: `Human-likeness certificate: ${profile}`,
      description: `An AI agent (wallet ${session.wallet}) passed the ${profile} profile${score} on ${day(session.settled_at)}.`,
      url: urls.url,
      image_url: urls.imageUrl,
      svg_image_url: urls.svgImageUrl,
      result_url: urls.resultUrl,
    },
    session,
  };
}

/**
 * A score as shown to people: one decimal.
 * @param score - 0..100
 * @returns e.g. `91.3`
 */
export function formatScore(score: number): string {
  return score.toFixed(1);
}

/**
 * The calendar day of an ISO timestamp (UTC).
 * @param iso - ISO timestamp
 * @returns e.g. `2026-11-25`
 */
export function day(iso: string): string {
  return iso.slice(0, 10);
}

/**
 * The head of a shareable certificate page: Open Graph and Twitter card tags and the canonical link.
 * @param c - title, description, own URL and image URL
 * @returns the escaped head tags
 */
export function shareHead(c: { title: string; description: string; url: string; image_url: string }): string {
  const meta = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'humanlike'],
    ['property', 'og:title', c.title],
    ['property', 'og:description', c.description],
    ['property', 'og:url', c.url],
    ['property', 'og:image', c.image_url],
    ['property', 'og:image:type', 'image/png'],
    ['property', 'og:image:alt', c.title],
    ['property', 'og:image:width', '1200'],
    ['property', 'og:image:height', '630'],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', c.title],
    ['name', 'twitter:description', c.description],
    ['name', 'twitter:image', c.image_url],
    ['name', 'twitter:image:alt', c.title],
    ['name', 'description', c.description],
  ]
    .map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`)
    .join('\n');
  return `${meta}\n<link rel="canonical" href="${escapeHtml(c.url)}">`;
}

/**
 * The certificate as a shareable HTML page with Open Graph and Twitter card tags.
 * @param cert - the certificate
 * @returns the HTML document
 */
export function renderCertificatePage(cert: Certificate): string {
  const { certificate: c, session: s } = cert;
  const head = shareHead(c);
  const rows: Array<[string, string]> = [
    ['Profile', s.profile?.name ?? '-'],
    ['Product', s.tier ? `${s.product} (${s.tier})` : s.product],
    ['Wallet', s.wallet],
    ['Network', s.network],
    ['Settled', s.settled_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
  ];
  const body = `<article class="card">
<span class="seal">Certified human-like</span>
<h1>${escapeHtml(s.profile?.name ?? 'Human profile')}</h1>
<p class="muted">This AI agent's reply passed the profile, scored on a settled, paid session.</p>
<div class="score" aria-label="EQ score">${escapeHtml(s.eq_score === null ? '-' : formatScore(s.eq_score))}</div>
<p class="muted">EQ score out of 100</p>
<dl>
${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}
</dl>
<p><a href="${escapeHtml(c.result_url)}">Public result</a> · <a href="${escapeHtml(c.image_url)}">Share image</a> (<a href="${escapeHtml(c.svg_image_url)}">SVG</a>)</p>
</article>`;
  return htmlPage({ title: c.title, head, body });
}
