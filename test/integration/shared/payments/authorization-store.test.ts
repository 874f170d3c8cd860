import { expect } from 'chai';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const TEXT = "Oh no, I'm so sorry. That's a rough week. Want me to call you tonight so we can sort out the flights together?";

describe('recordSettlement: what a settled session keeps for the progress report and the export', function () {
  this.timeout(60_000);
  let paid: PaidStack;

  before(async function () {
    paid = await startPaidStack('ledger-training-fields');
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  async function simulate(extra: Record<string, unknown>) {
    const payer = paid.payers[2];
    const signed = await signPayment(payer, paid.requirement(180_000), RESOURCE);
    const res = await paid.stack.http
      .post('/api/simulate')
      .set('PAYMENT-SIGNATURE', signed.header)
      .send({ wallet_address: payer.address, proposed_text: TEXT, response_delay_seconds: 14, target_profile: 'grief-support-peer', tier: 'deep', ...extra });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [row] = (await paid.stack.deps.dataSource.query(
      `SELECT l.persona_targets, l.measured_dimensions, l.training_text, a.summary
         FROM ledger_sessions l JOIN payment_authorizations a ON a.id = l.authorization_id WHERE l.result_id = $1`,
      [res.body.result_id],
    )) as Array<Record<string, unknown>>;
    return { body: res.body, row };
  }

  it('freezes the persona targets and the measured dimensions of every settled session, and no text by default', async function () {
    const { body, row } = await simulate({});
    const dims = ['directness', 'empathy', 'formality', 'hesitation'];
    expect(Object.keys(row.persona_targets as object).sort()).to.deep.equal(dims);
    expect(Object.keys(row.measured_dimensions as object).sort()).to.deep.equal(dims);
    for (const dim of dims) {
      expect((row.persona_targets as Record<string, unknown>)[dim]).to.deep.equal({ target: body.diagnostics[dim].target, tolerance: body.diagnostics[dim].tolerance });
      expect((row.measured_dimensions as Record<string, number>)[dim]).to.equal(body.diagnostics[dim].measured);
    }
    expect(row.training_text).to.equal(null);
    expect(row.summary).to.not.have.property('trainingText');
  });

  it('keeps the text in the ledger row only when the paid request opted in, and drops it from the replay summary', async function () {
    const { row } = await simulate({ store_text_for_training: true });
    expect(row.training_text).to.equal(TEXT);
    expect(row.summary).to.not.have.property('trainingText');
    const stored = (await paid.stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM payment_authorizations WHERE summary::text LIKE '%rough week%'`)) as Array<{ n: number }>;
    expect(stored[0].n).to.equal(0);
  });

  it('refuses a non-boolean store_text_for_training (422, before any payment)', async function () {
    const res = await paid.stack.http
      .post('/api/simulate')
      .send({ wallet_address: paid.payers[2].address, proposed_text: TEXT, response_delay_seconds: 14, target_profile: 'grief-support-peer', store_text_for_training: 'yes' });
    expect(res.status).to.equal(422);
    expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.deep.equal(['/store_text_for_training']);
  });
});
