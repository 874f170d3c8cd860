import { formatUsdc } from '../../shared/money';
import { escapeHtml, htmlPage } from '../http/html-page';
import type { ProofCard } from './build-cards';

const when = (iso: string | null) => (iso === null ? 'none yet' : iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));
const ms = (v: number | null) => (v === null ? 'n/a' : `${v} ms`);

function row(label: string, value: string | number): string {
  return `<tr><td>${escapeHtml(label)}</td><td class="num">${escapeHtml(String(value))}</td></tr>`;
}

/** The page's choices beyond the card. */
export interface CardPageOptions {
  /** The legacy SOL rail is configured: the lamport price is shown too. */
  solRail: boolean;
}

/**
 * A card as a page for people (`?format=html`): what the product does, its price as money, the
 * evidence as a table, the request to copy, the payment steps, and the same privacy and counting
 * notes as the JSON. Every value is the service's own text or a number, escaped; the example's
 * wallet is a placeholder.
 * @param card - the card
 * @param options - whether the SOL rail is configured (lamport prices are shown only then)
 * @returns the HTML document
 */
export function renderCardPage(card: ProofCard, options: CardPageOptions): string {
  const e = card.evidence;
  const price = card.current_price;
  const w = card.freshness.metrics_window;
  const lamports = options.solRail ? ` (or ${price.base_lamports} lamports on the legacy SOL rail)` : '';
  const evidence = [
    row('Payment challenges (402)', e.payment_challenges),
    row('Paid retries', e.payment_retries),
    row('Payments verified', e.payment_verifications),
    row('Payments settled', e.payment_settlements),
    row('Settlements verified on chain', e.verified_settlements),
    row('Successful paid calls', e.successful_invocations),
    row('Answers delivered', e.deliveries),
    row('Second paid calls', e.second_paid_calls),
    row('Repeat buyers', e.repeat_buyers),
    row('Test or canary calls (not counted above)', e.test_or_canary_invocations),
    row('Latency p50', ms(e.latency_ms.p50)),
    row('Latency p95', ms(e.latency_ms.p95)),
    row('Latest success', when(e.freshest_success_at)),
    row('Card views', e.attribution.proof_discoveries),
    row('Views followed by a successful call', e.attribution.proof_to_successful_call),
    row('Views followed by a second paid call', e.attribution.proof_to_second_paid_call),
  ].join('\n');
  const body = `<h1>${escapeHtml(`${card.method} ${card.endpoint}`)}</h1>
<p>${escapeHtml(card.task)}</p>
<div class="tiles">
<div class="tile"><span class="muted">Price</span><b>${escapeHtml(formatUsdc(price.base_usdc_micro))}</b></div>
<div class="tile"><span class="muted">Successful paid calls</span><b>${e.successful_invocations}</b></div>
<div class="tile"><span class="muted">Latency p50</span><b>${escapeHtml(ms(e.latency_ms.p50))}</b></div>
</div>
<p class="muted">${escapeHtml(`${formatUsdc(price.base_usdc_micro)} for ${price.priced_endpoint}${lamports}, quoted at ${when(price.quoted_at)}. ${price.note}`)}</p>
<h2>Evidence</h2>
<p class="muted">${escapeHtml(`The last ${w.days} UTC day(s), ${when(w.from)} to ${when(w.to)}; snapshot of ${when(card.freshness.card_generated_at)}.`)}</p>
<table><thead><tr><th>Counter</th><th class="num">Value</th></tr></thead><tbody>
${evidence}
</tbody></table>
<h2>Try it</h2>
<pre class="code"><code>${escapeHtml(card.copyable_request.curl)}</code></pre>
<ol>
${card.payment_flow.map((s) => `<li><b>${escapeHtml(s.action)}</b> ${escapeHtml(s.detail)}</li>`).join('\n')}
</ol>
<h2>Privacy</h2>
<p>${escapeHtml(card.privacy)}</p>
<h2>How it is counted</h2>
<p class="muted">${escapeHtml(card.counting_note)}</p>
<p class="muted"><a href="?format=json">JSON</a> · <a href="?format=markdown">Markdown</a> · <a href="/api/proof-cards">Every card (JSON)</a></p>`;
  return htmlPage({ title: `humanlike proof card: ${card.method} ${card.endpoint}`, body });
}
