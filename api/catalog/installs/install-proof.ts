import type { InstallRow } from '../../../shared/catalog/install-store';
import { escapeHtml } from '../../http/html-page';

/** The public proof of an install: a verified install names its origin; a revoked one does not. */
export interface InstallProof {
  workflow_id: string;
  offering_id: string;
  status: 'verified' | 'revoked';
  site_origin?: string;
  verified_at?: string;
  last_checked_at?: string | null;
  revoked_at?: string;
  revoked_reason?: string | null;
}

/**
 * The proof of a workflow, or undefined when there is nothing public to show: an install that was
 * never verified shows nothing at all (not even that it exists), and a revoked one shows its
 * status without its origin (the site no longer proves it).
 * @param install - the workflow
 * @returns the proof, or undefined
 */
export function installProof(install: InstallRow): InstallProof | undefined {
  if (install.state === 'verified' && install.verifiedAt) {
    return {
      workflow_id: install.id,
      offering_id: install.offeringId,
      status: 'verified',
      site_origin: install.siteOrigin,
      verified_at: install.verifiedAt.toISOString(),
      last_checked_at: install.lastCheckedAt?.toISOString() ?? null,
    };
  }
  if (install.state === 'revoked' && install.revokedAt) {
    return { workflow_id: install.id, offering_id: install.offeringId, status: 'revoked', revoked_at: install.revokedAt.toISOString(), revoked_reason: install.revokedReason };
  }
  return undefined;
}


/**
 * The badge: a flat two-part SVG, "humanlike install | verified" (green) or "| revoked" (grey).
 * @param proof - the proof
 * @returns the SVG text
 */
export function proofBadgeSvg(proof: InstallProof): string {
  const right = proof.status;
  const color = proof.status === 'verified' ? '#2e7d32' : '#757575';
  const label = 'humanlike install';
  const leftWidth = 112;
  const rightWidth = 64;
  const width = leftWidth + rightWidth;
  const title = proof.status === 'verified' ? `${label}: verified on ${proof.site_origin}` : `${label}: revoked`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${escapeHtml(title)}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<rect width="${leftWidth}" height="20" fill="#555"/>`,
    `<rect x="${leftWidth}" width="${rightWidth}" height="20" fill="${color}"/>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">',
    `<text x="${leftWidth / 2}" y="14">${label}</text>`,
    `<text x="${leftWidth + rightWidth / 2}" y="14">${right}</text>`,
    '</g></svg>',
  ].join('');
}

/**
 * The proof as a small HTML page.
 * @param proof - the proof
 * @param badgePath - the badge's path
 * @returns the HTML text
 */
export function proofPage(proof: InstallProof, badgePath: string): string {
  const rows: Array<[string, string]> = [
    ['Workflow', proof.workflow_id],
    ['Offering', proof.offering_id],
    ['Status', proof.status],
    ...(proof.site_origin ? ([['Site', proof.site_origin]] as Array<[string, string]>) : []),
    ...(proof.verified_at ? ([['Verified at', proof.verified_at]] as Array<[string, string]>) : []),
    ...(proof.last_checked_at ? ([['Last checked at', proof.last_checked_at]] as Array<[string, string]>) : []),
    ...(proof.revoked_at ? ([['Revoked at', proof.revoked_at]] as Array<[string, string]>) : []),
  ];
  const title = proof.status === 'verified' ? `Verified install on ${proof.site_origin}` : 'Revoked install';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta property="og:title" content="${escapeHtml(title)}">
</head><body>
<h1>${escapeHtml(title)}</h1>
<p><img src="${escapeHtml(badgePath)}" alt="humanlike install: ${proof.status}"></p>
<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>
<p>The service fetched the challenge from the site and found the snippet on its live page; both are checked again regularly, and the badge is revoked when either disappears.</p>
</body></html>
`;
}
