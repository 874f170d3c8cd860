import { formatScore, day } from './certificate-page';
import { escapeHtml } from '../http/html-page';
import type { PublicSession } from './public-row';

/**
 * The certificate's share image (1200 x 630, the Open Graph large-image size) as SVG: drawn by
 * the service from the public session, no build step and no image library.
 * @param session - the passed session
 * @returns the SVG document
 */
export function renderCertificateImage(session: PublicSession): string {
  const profile = escapeHtml(session.profile?.name ?? 'Human profile');
  const score = escapeHtml(session.eq_score === null ? '-' : formatScore(session.eq_score));
  const footer = escapeHtml(`${session.wallet} · ${day(session.settled_at)} · ${session.network}`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img" aria-label="Human-likeness certificate: ${profile}, EQ ${score}">
  <rect width="1200" height="630" fill="#fbf8f1"/>
  <rect x="30" y="30" width="1140" height="570" rx="28" fill="none" stroke="#d9cfb8" stroke-width="4"/>
  <rect x="46" y="46" width="1108" height="538" rx="20" fill="none" stroke="#1f6f5c" stroke-width="2"/>
  <text x="600" y="140" text-anchor="middle" font-family="system-ui, sans-serif" font-size="30" letter-spacing="6" fill="#1f6f5c">CERTIFIED HUMAN-LIKE</text>
  <text x="600" y="235" text-anchor="middle" font-family="Georgia, serif" font-size="64" fill="#1c2430">${profile}</text>
  <text x="600" y="405" text-anchor="middle" font-family="system-ui, sans-serif" font-size="150" font-weight="700" fill="#1f6f5c">${score}</text>
  <text x="600" y="455" text-anchor="middle" font-family="system-ui, sans-serif" font-size="28" fill="#5b6675">EQ score out of 100</text>
  <text x="600" y="540" text-anchor="middle" font-family="system-ui, sans-serif" font-size="26" fill="#5b6675">${footer}</text>
</svg>
`;
}
