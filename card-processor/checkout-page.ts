/** What the hosted checkout page shows. */
export interface CheckoutPageView {
  sessionId: string;
  productName: string;
  /** The amount in minor units and its currency. */
  amount: number;
  currency: string;
  cancelUrl: string | null;
  /** A message after a refused submission (a decline, an invalid field). */
  error?: string;
  /** Values typed before a refused submission (never the card number or CVC). */
  name?: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/**
 * Formats a minor-unit amount for people.
 * @param amount - minor units
 * @param currency - ISO code
 * @returns e.g. `$5.00`
 */
export function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}

const STYLE = `
body { font-family: system-ui, sans-serif; background: #f6f8fa; margin: 0; padding: 2rem 1rem; color: #1f2328; }
main { max-width: 26rem; margin: 0 auto; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 1.5rem; }
.test { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: .5rem .75rem; font-size: .9rem; }
label { display: block; margin-top: 1rem; font-weight: 600; }
input { width: 100%; box-sizing: border-box; padding: .55rem; font-size: 1rem; border: 1px solid #8c959f; border-radius: 6px; margin-top: .25rem; }
.row { display: flex; gap: .75rem; } .row > div { flex: 1; }
button { margin-top: 1.5rem; width: 100%; padding: .7rem; font-size: 1rem; background: #0969da; color: #fff; border: 0; border-radius: 6px; cursor: pointer; }
[role=alert] { color: #cf222e; font-weight: 600; margin-top: 1rem; }
`;

/**
 * The hosted checkout page: card fields with the standard autocomplete tokens (`cc-name`,
 * `cc-number`, `cc-exp`, `cc-csc`), each with a visible label, so browsers, password managers and
 * assistive tools can fill and announce them.
 * @param view - the session and any message
 * @returns the HTML document
 */
export function renderCheckoutPage(view: CheckoutPageView): string {
  const price = formatAmount(view.amount, view.currency);
  const error = view.error ? `<p role="alert" id="card-error">${escapeHtml(view.error)}</p>` : '';
  const cancel = view.cancelUrl ? `<p><a href="${escapeHtml(view.cancelUrl)}">Cancel and go back</a></p>` : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escapeHtml(price)} - ${escapeHtml(view.productName)}</title><style>${STYLE}</style></head>
<body><main>
<p class="test">Test mode: the local development card processor. Nothing real is charged. Use 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined), any future expiry, any CVC.</p>
<h1>${escapeHtml(view.productName)}</h1>
<p>Total: <strong id="amount">${escapeHtml(price)}</strong></p>
<form method="post" action="/pay/${encodeURIComponent(view.sessionId)}" novalidate>
<label for="cc-name">Name on card</label>
<input id="cc-name" name="cardholder_name" autocomplete="cc-name" required value="${escapeHtml(view.name ?? '')}">
<label for="cc-number">Card number</label>
<input id="cc-number" name="card_number" autocomplete="cc-number" inputmode="numeric" required aria-describedby="${view.error ? 'card-error' : ''}" placeholder="1234 1234 1234 1234">
<div class="row">
<div><label for="cc-exp">Expiry date (MM / YY)</label>
<input id="cc-exp" name="card_expiry" autocomplete="cc-exp" inputmode="numeric" required placeholder="MM / YY"></div>
<div><label for="cc-csc">Security code (CVC)</label>
<input id="cc-csc" name="card_cvc" autocomplete="cc-csc" inputmode="numeric" required placeholder="CVC"></div>
</div>
${error}
<button type="submit">Pay ${escapeHtml(price)}</button>
</form>
${cancel}
</main></body></html>`;
}

/**
 * The page of a session that can no longer be paid (paid already, or expired).
 * @param message - what happened
 * @returns the HTML document
 */
export function renderClosedPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title><style>${STYLE}</style></head><body><main><p class="test">Test mode: the local development card processor.</p><p>${escapeHtml(message)}</p></main></body></html>`;
}
