import type { CardPurchaseRow } from '../../shared/cards/card-store';
import { escapeHtml, htmlPage } from '../http/html-page';

function statusLine(purchase: CardPurchaseRow | undefined, kind: 'complete' | 'cancelled'): string {
  if (!purchase) return 'This checkout is not known to this server.';
  if (purchase.status === 'paid') return `Paid: ${purchase.credits} credits of the ${purchase.pack} pack are on your bundle.`;
  if (purchase.status === 'failed') return 'This payment did not go through; no credits were added.';
  return kind === 'cancelled'
    ? 'The checkout was left without paying; nothing was charged.'
    : `Thank you. ${purchase.credits} credits of the ${purchase.pack} pack are added as soon as the payment is confirmed (usually within seconds).`;
}

/**
 * The page the card processor sends the buyer back to. It shows the purchase's state, never the
 * bundle token (which is not in any URL) and never grants anything.
 * @param kind - complete (after paying) or cancelled (left the checkout)
 * @param purchase - the purchase of the session, if known
 * @returns the HTML document
 */
export function renderReturnPage(kind: 'complete' | 'cancelled', purchase: CardPurchaseRow | undefined): string {
  const status = purchase?.status ?? 'unknown';
  return htmlPage({
    title: 'humanlike card checkout',
    body: `<h1>${kind === 'complete' ? 'Checkout complete' : 'Checkout cancelled'}</h1>
<p id="purchase-status" data-status="${escapeHtml(status)}">${escapeHtml(statusLine(purchase, kind))}</p>
<p>Read your balance with <code>GET /api/bundle/balance</code> and your bundle token in the <code>X-BUNDLE-TOKEN</code> header. Spend one credit per basic session with <code>POST /api/simulate</code> and the same header.</p>`,
  });
}
