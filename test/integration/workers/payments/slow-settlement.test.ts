import { expect } from 'chai';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const BASIC = 50_000;
const BLOCK_TIME_MS = 2_000;
const CALLS = 40;

// Settlement on a real chain waits for a block (about 2 s on Base). Settlements must wait side by
// side, not in a queue: with the old fixed 16 per worker, 40 calls took three block times, past
// this stack's settlement wait, and most answered 504.
describe('settlement with a 2-second block time (40 concurrent paid calls)', function () {
  this.timeout(120_000);
  let paid: PaidStack;

  before(async function () {
    paid = await startPaidStack('slow-settlement', {
      facilitator: { blockTimeMs: BLOCK_TIME_MS },
      env: { SETTLEMENT_WAIT_TIMEOUT_MS: String(2 * BLOCK_TIME_MS + 1_000), X402_FACILITATOR_TIMEOUT_MS: '10000' },
    });
    await paid.stack.truncate();
  });
  after(async function () {
    await paid?.close();
  });

  it('settles every call exactly once, none times out, and moves exactly 40 prices', async function () {
    const treasury = paid.facilitator.treasury;
    // Five calls per payer: no wallet reaches the loyalty discount mid-test, so every quote is the base price.
    const payers = paid.payers.slice(0, CALLS / 5);
    const before = await Promise.all([treasury, ...payers.map((p) => p.address)].map((a) => paid.balanceOf(a)));
    // The run's database is shared by every suite of the run: count this test's rows only.
    const ledgerBefore = await paid.count('ledger_sessions');
    const calls = await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        const payer = payers[i % payers.length];
        const signed = await signPayment(payer, paid.requirement(BASIC), RESOURCE);
        return paid.stack.http
          .post('/api/simulate')
          .set('PAYMENT-SIGNATURE', signed.header)
          .send({
            wallet_address: payer.address,
            proposed_text: `Oh no, that sounds like a long week (${i}). Want to talk it through tonight?`,
            response_delay_seconds: 12,
            target_profile: 'grief-support-peer',
          });
      }),
    );
    const statuses = calls.map((c) => c.status);
    expect(statuses.filter((s) => s !== 200), statuses.join(',')).to.deep.equal([]);
    expect(new Set(calls.map((c) => c.body.payment.transaction)).size).to.equal(CALLS);
    expect((await paid.count('ledger_sessions')) - ledgerBefore).to.equal(CALLS);
    const after = await Promise.all([treasury, ...payers.map((p) => p.address)].map((a) => paid.balanceOf(a)));
    expect(after[0] - before[0]).to.equal(BigInt(CALLS * BASIC));
    payers.forEach((_, k) => expect(before[k + 1] - after[k + 1]).to.equal(BigInt(5 * BASIC)));
  });
});
