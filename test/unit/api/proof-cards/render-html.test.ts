import { expect } from 'chai';
import type { ProofCard } from '../../../../api/proof-cards/build-cards';
import { renderCardPage } from '../../../../api/proof-cards/render-html';

const card: ProofCard = {
  id: 'simulate',
  task: 'Score a reply <b>against</b> a profile & more',
  endpoint: '/api/simulate',
  method: 'POST',
  request_schema: {},
  realistic_example: {},
  current_price: { quoted_at: '2026-12-01T00:00:00.000Z', base_lamports: 270000, base_usdc_micro: 75000, note: 'Note "quoted".', priced_endpoint: 'POST /api/simulate' },
  freshness: { card_generated_at: '2026-12-01T00:00:00.000Z', metrics_window: { days: 30, from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z', granularity: 'utc_day' } },
  evidence: {
    payment_challenges: 4,
    payment_retries: 3,
    payment_verifications: 3,
    payment_settlements: 3,
    verified_settlements: 3,
    successful_invocations: 3,
    deliveries: 3,
    second_paid_calls: 1,
    repeat_buyers: 1,
    test_or_canary_invocations: 0,
    latency_ms: { p50: 120, p95: null },
    freshest_success_at: null,
    attribution: { proof_discoveries: 2, proof_to_successful_call: 1, proof_to_second_paid_call: 0 },
  },
  copyable_request: { method: 'POST', url: 'http://x/api/simulate', headers: {}, body: {}, curl: `curl -d '{"a":"</pre><script>'` },
  payment_flow: [{ step: 1, action: 'Send <it>.', detail: 'Then & now.' }],
  privacy: 'No wallets.',
  counting_note: 'Counted once.',
};

describe('renderCardPage', function () {
  it('escapes every value, shows the price as money, and lamports only with the SOL rail', function () {
    const page = renderCardPage(card, { solRail: false });
    expect(page).to.include('Score a reply &lt;b&gt;against&lt;/b&gt; a profile &amp; more');
    expect(page).to.include('&lt;/pre&gt;&lt;script&gt;').and.not.include('<script>');
    expect(page).to.include('<b>Send &lt;it&gt;.</b> Then &amp; now.');
    expect(page).to.include('<b>0.075 USDC</b>').and.not.include('lamports');
    expect(page).to.include('<tr><td>Latency p95</td><td class="num">n/a</td></tr>');
    expect(renderCardPage(card, { solRail: true })).to.include('0.075 USDC for POST /api/simulate (or 270000 lamports on the legacy SOL rail)');
  });
});
