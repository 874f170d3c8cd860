import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { payerClaimMessage } from '../../../../api/payments/payer-claim';
import { startInstallSite, verifyInstall, type InstallSite } from '../../../helpers/install-site';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signedSolTransfer, startLocalSolanaRpc, type LocalSolanaRpc } from '../../../helpers/solana-rpc';
import { base64Json, signPayment, type SignedPayment } from '../../../helpers/x402-payments';

/** What the tests read of a tool's structured result: a quote, or an error with its fields. */
interface ToolAnswer {
  [member: string]: unknown;
  amount: { usdc_units: number };
  quote_id: string;
  error: { code: string; status: number; details: { fields: Array<{ path: string }> } };
}

const STARTER = { credits: 500, usdc: 21_250_000, lamports: 114_750_000 };
const GROWTH = { credits: 2000, usdc: 85_000_000 };

describe('agent plans for a verified install', function () {
  this.timeout(90_000);
  let site: InstallSite;
  let paid: PaidStack;
  let workflowId: string;
  let rpc: LocalSolanaRpc;
  let solTreasury: KeyPairSigner;

  before(async function () {
    site = await startInstallSite();
    rpc = await startLocalSolanaRpc();
    solTreasury = await generateKeyPairSigner();
    paid = await startPaidStack('catalog-plans', {
      env: { OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1', OUTBOUND_ALLOW_PORTS: String(site.port), SOLANA_RPC_URL: rpc.url, TREASURY_SOLANA_ADDRESS: solTreasury.address },
    });
  });
  after(async function () {
    await paid?.close();
    await rpc?.stop();
    await site?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
    workflowId = (await verifyInstall(paid.stack.http, site, `/page-${Date.now()}`)).id;
  });

  const http = () => paid.stack.http;
  const query = async (sql: string, params: unknown[] = []) => (await paid.stack.deps.dataSource.query(sql, params)) as Array<Record<string, unknown>>;
  const settlements = async () => Number((await query(`SELECT count(*)::int AS n FROM payment_authorizations WHERE status = 'settled'`))[0]!.n);
  const rows = async (table: string) => Number((await query(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);
  const payUrl = (quoteId: string) => `${PUBLIC_BASE_URL}/api/catalog/agent/payments/${quoteId}`;
  const claim = (account: PrivateKeyAccount, signed: SignedPayment) => account.signMessage({ message: payerClaimMessage('catalog plan token', signed.nonce) });

  async function quote(payer: PrivateKeyAccount, path = '/api/catalog/agent/quotes', body: Record<string, unknown> = { plan_id: 'embed-starter' }) {
    const res = await http().post(path).send({ workflow_id: workflowId, wallet_address: payer.address, ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { quote_id: string; amount: { usdc_units: number }; expires_at: string; kind: string };
  }

  async function creditsOf(token: string): Promise<number> {
    const balance = await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', token).expect(200);
    return balance.body.credits_remaining as number;
  }

  it('lists plans with credits and terms from the live catalog', async function () {
    const res = await http().get('/api/catalog/agent/catalog').expect(200);
    expect(res.body.plans.map((p: { plan_id: string; credits: number; price_usdc_units: number }) => [p.plan_id, p.credits, p.price_usdc_units])).to.deep.equal([
      ['embed-starter', STARTER.credits, STARTER.usdc],
      ['embed-growth', GROWTH.credits, GROWTH.usdc],
    ]);
  });

  it('lists and quotes the plans as MCP tools, with the HTTP paths\' rules, and the tool\'s quote is paid over HTTP', async function () {
    const payer = paid.payers[1];
    let id = 0;
    const callTool = async (name: string, args: Record<string, unknown>) => {
      const res = await http()
        .post('/api/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: (id += 1), method: 'tools/call', params: { name, arguments: args } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.result as { isError?: boolean; structuredContent: ToolAnswer };
    };
    const plans = await callTool('catalog-plans', {});
    expect(plans.structuredContent).to.deep.equal((await http().get('/api/catalog/agent/catalog').expect(200)).body);

    // What a path refuses, the tool refuses the same way, and nothing is stored.
    const noPlan = await callTool('catalog-plan-quote', { kind: 'new', workflow_id: workflowId, wallet_address: payer.address });
    expect(noPlan.isError).to.equal(true);
    expect(noPlan.structuredContent.error.details.fields.map((f: { path: string }) => f.path)).to.deep.equal(['/plan_id']);
    const renewal = await callTool('catalog-plan-quote', { kind: 'renewal', workflow_id: workflowId, wallet_address: payer.address });
    expect(renewal.structuredContent.error).to.include({ code: 'no_plan', status: 409 });
    expect(await rows('catalog_agent_quotes')).to.equal(0);

    const quoted = await callTool('catalog-plan-quote', { kind: 'new', workflow_id: workflowId, plan_id: 'embed-starter', wallet_address: payer.address });
    expect(quoted.isError).to.equal(undefined);
    expect(quoted.structuredContent).to.deep.include({ kind: 'new', plan_id: 'embed-starter', workflow_id: workflowId });
    expect(quoted.structuredContent.amount.usdc_units).to.equal(STARTER.usdc);
    expect(await settlements()).to.equal(0);
    const challenge = await http().post(`/api/catalog/agent/payments/${quoted.structuredContent.quote_id}`).send({}).expect(402);
    expect(challenge.body.accepts[0]).to.include({ amount: String(STARTER.usdc) });
  });

  it('quotes, answers the 402 challenge (no header, empty X-PAYMENT), settles once and activates the plan with its token', async function () {
    const payer = paid.payers[1];
    const q = await quote(payer);
    expect(q.amount.usdc_units).to.equal(STARTER.usdc);
    expect(Date.parse(q.expires_at)).to.be.greaterThan(Date.now());

    const challenge = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).expect(402);
    expect(challenge.body.accepts[0].amount).to.equal(String(STARTER.usdc));
    expect(challenge.body.resource.url).to.equal(payUrl(q.quote_id));
    const empty = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).set('X-PAYMENT', '').expect(402);
    expect(empty.body.accepts[0].amount).to.equal(String(STARTER.usdc));

    const before = await paid.balanceOf(payer.address);
    const signed = await signPayment(payer, paid.requirement(STARTER.usdc), payUrl(q.quote_id));
    const res = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).set('PAYMENT-SIGNATURE', signed.header);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers['payment-response']).to.be.a('string');
    expect(res.body.activation).to.include({ status: 'active', plan_id: 'embed-starter', credits_granted: STARTER.credits });
    const token = res.body.activation.bundle_token as string;
    expect(token).to.match(/^hlb_/);
    expect(await creditsOf(token)).to.equal(STARTER.credits);
    expect(before - (await paid.balanceOf(payer.address))).to.equal(BigInt(STARTER.usdc));
    expect(await settlements()).to.equal(1);

    // The same payment again: the delivery replayed, nothing charged or granted, no token.
    const replay = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).set('PAYMENT-SIGNATURE', signed.header).expect(200);
    expect(replay.headers['x-payment-replayed']).to.equal('true');
    expect(replay.body.activation).to.include({ status: 'active', credits_granted: 0, bundle_token: null });
    // Another payment for the same quote: refused, released, never settled.
    const second = await signPayment(payer, paid.requirement(STARTER.usdc), payUrl(q.quote_id));
    const refused = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).set('PAYMENT-SIGNATURE', second.header).expect(409);
    expect(refused.body.error.code).to.equal('quote_already_paid');
    // Without a payment: it says the quote is paid, never a new challenge.
    expect((await http().post(`/api/catalog/agent/payments/${q.quote_id}`).expect(409)).body.error.code).to.equal('quote_already_paid');
    expect(await settlements()).to.equal(1);
    expect(before - (await paid.balanceOf(payer.address))).to.equal(BigInt(STARTER.usdc));
    expect(await creditsOf(token)).to.equal(STARTER.credits);

    const status = await http().get(`/api/catalog/agent/payments/${q.quote_id}`).expect(200);
    expect(status.body.payment.status).to.equal('settled');
    expect(status.body.activation).to.include({ status: 'active', plan_id: 'embed-starter' });
    expect(JSON.stringify(status.body)).not.to.include(payer.address.slice(2, 30).toLowerCase());
  });

  it('takes the legacy X-PAYMENT (a SOL transfer from the quote\'s wallet) through the same pipeline', async function () {
    const wallet = await generateKeyPairSigner();
    const q = await http().post('/api/catalog/agent/quotes').send({ workflow_id: workflowId, plan_id: 'embed-starter', wallet_address: wallet.address }).expect(201);
    const quoteId = q.body.quote_id as string;
    const challenge = await http().post(`/api/catalog/agent/payments/${quoteId}`).expect(402);
    expect(challenge.body.accepts[1]).to.include({ network: 'solana', amount: String(STARTER.lamports) });
    const tx = await signedSolTransfer({ feePayer: wallet, transfers: [{ source: wallet, destination: solTreasury.address, lamports: STARTER.lamports }] });
    const signature = await rpc.add(tx.wire);
    const header = base64Json({ x402Version: 1, scheme: 'exact', network: 'solana', payload: { signature, payer: wallet.address } });
    const res = await http().post(`/api/catalog/agent/payments/${quoteId}`).set('X-PAYMENT', header);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.activation).to.include({ status: 'active', credits_granted: STARTER.credits });
    expect(await creditsOf(res.body.activation.bundle_token as string)).to.equal(STARTER.credits);
    expect(await settlements()).to.equal(1);
  });

  it('recovers an activation that failed after settlement with retry-activation, at exactly one settlement', async function () {
    const payer = paid.payers[2];
    const q = await quote(payer);
    const before = await paid.balanceOf(payer.address);
    // A fault in the database, only while the payment is made: every grant is refused.
    await query(`CREATE OR REPLACE FUNCTION catalog_test_refuse_grant() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'grant refused by the test'; END $$`);
    await query(`CREATE TRIGGER catalog_test_refuse_grant BEFORE INSERT ON catalog_plan_grants FOR EACH ROW EXECUTE FUNCTION catalog_test_refuse_grant()`);
    let signed: SignedPayment;
    try {
      signed = await signPayment(payer, paid.requirement(STARTER.usdc), payUrl(q.quote_id));
      const res = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).set('PAYMENT-SIGNATURE', signed.header);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.activation).to.include({ status: 'failed', error: 'activation_failed' });
      expect(res.body.activation.retry.path).to.equal(`/api/catalog/agent/payments/${q.quote_id}/retry-activation`);
      expect(await settlements()).to.equal(1);
      expect(await rows('catalog_plan_grants')).to.equal(0);
      expect(await rows('catalog_install_plans')).to.equal(0);
      expect((await http().get(`/api/catalog/agent/payments/${q.quote_id}`).expect(200)).body.activation.status).to.equal('failed');
    } finally {
      await query(`DROP TRIGGER IF EXISTS catalog_test_refuse_grant ON catalog_plan_grants`);
      await query(`DROP FUNCTION IF EXISTS catalog_test_refuse_grant()`);
    }

    // A stranger's claim finishes the activation but gets no token.
    const stranger = privateKeyToAccount(generatePrivateKey());
    const other = await http().post(`/api/catalog/agent/payments/${q.quote_id}/retry-activation`).set('X-CATALOG-PLAN-CLAIM', await claim(stranger, signed)).expect(200);
    expect(other.body.activation).to.include({ status: 'active', credits_granted: STARTER.credits, bundle_token: null });
    const retried = await http().post(`/api/catalog/agent/payments/${q.quote_id}/retry-activation`).set('X-CATALOG-PLAN-CLAIM', await claim(payer, signed)).expect(200);
    expect(retried.body.activation).to.include({ status: 'active', credits_granted: 0 });
    const token = retried.body.activation.bundle_token as string;
    expect(token).to.match(/^hlb_/);
    expect(await creditsOf(token)).to.equal(STARTER.credits);
    const again = await http().post(`/api/catalog/agent/payments/${q.quote_id}/retry-activation`).set('X-CATALOG-PLAN-CLAIM', await claim(payer, signed)).expect(200);
    expect(again.body.activation).to.include({ status: 'active', credits_granted: 0, bundle_token: null });

    expect(await settlements()).to.equal(1);
    expect(await rows('catalog_plan_grants')).to.equal(1);
    expect(before - (await paid.balanceOf(payer.address))).to.equal(BigInt(STARTER.usdc));
    expect(await creditsOf(token)).to.equal(STARTER.credits);
  });

  it('refuses a quote past its expiry before any payment is read', async function () {
    const payer = paid.payers[3];
    const q = await quote(payer);
    await query(`UPDATE catalog_agent_quotes SET expires_at = now() - interval '1 second' WHERE id = $1`, [q.quote_id]);
    const before = await paid.balanceOf(payer.address);
    const signed = await signPayment(payer, paid.requirement(STARTER.usdc), payUrl(q.quote_id));
    const res = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).set('PAYMENT-SIGNATURE', signed.header).expect(410);
    expect(res.body.error.code).to.equal('quote_expired');
    expect(await rows('payment_authorizations')).to.equal(0);
    expect(await paid.balanceOf(payer.address)).to.equal(before);
    expect((await http().get(`/api/catalog/agent/payments/${q.quote_id}`).expect(200)).body.payment.status).to.equal('expired');
  });

  it('renews and upgrades the plan on the same token, priced from the live catalog', async function () {
    const payer = paid.payers[4];
    const first = await quote(payer);
    const firstPaid = await signPayment(payer, paid.requirement(STARTER.usdc), payUrl(first.quote_id));
    const bought = await http().post(`/api/catalog/agent/payments/${first.quote_id}`).set('PAYMENT-SIGNATURE', firstPaid.header).expect(200);
    const token = bought.body.activation.bundle_token as string;
    // A second new plan for the same install is refused: renew or upgrade it.
    expect((await http().post('/api/catalog/agent/quotes').send({ workflow_id: workflowId, plan_id: 'embed-growth', wallet_address: payer.address }).expect(409)).body.error.code).to.equal('plan_already_active');

    const upgrade = await quote(payer, '/api/catalog/agent/upgrades', { plan_id: 'embed-growth' });
    expect(upgrade.amount.usdc_units).to.equal(GROWTH.usdc - STARTER.usdc);
    const upgradePaid = await signPayment(payer, paid.requirement(GROWTH.usdc - STARTER.usdc), payUrl(upgrade.quote_id));
    const upgraded = await http().post(`/api/catalog/agent/payments/${upgrade.quote_id}`).set('PAYMENT-SIGNATURE', upgradePaid.header).expect(200);
    expect(upgraded.body.activation).to.include({ status: 'active', plan_id: 'embed-growth', credits_granted: GROWTH.credits - STARTER.credits, bundle_token: null });
    expect(await creditsOf(token)).to.equal(GROWTH.credits);
    // Downgrading is not an upgrade.
    const down = await http().post('/api/catalog/agent/upgrades').send({ workflow_id: workflowId, plan_id: 'embed-starter', wallet_address: payer.address }).expect(422);
    expect(down.body.error.details.fields[0].path).to.equal('/plan_id');

    const renewal = await quote(payer, '/api/catalog/agent/renewals', {});
    expect(renewal.amount.usdc_units).to.equal(GROWTH.usdc);
    const renewalPaid = await signPayment(payer, paid.requirement(GROWTH.usdc), payUrl(renewal.quote_id));
    const renewed = await http().post(`/api/catalog/agent/payments/${renewal.quote_id}`).set('PAYMENT-SIGNATURE', renewalPaid.header).expect(200);
    expect(renewed.body.activation.credits_granted).to.equal(GROWTH.credits);
    expect(Date.parse(renewed.body.activation.period_ends_at) - Date.parse(upgraded.body.activation.period_ends_at)).to.be.closeTo(30 * 86_400_000, 60_000);
    expect(await creditsOf(token)).to.equal(2 * GROWTH.credits);
    expect(await settlements()).to.equal(3);
  });

  describe('bad input', function () {
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['no wallet', '/api/catalog/agent/quotes', { plan_id: 'embed-starter' }, '/wallet_address'],
      ['a malformed wallet', '/api/catalog/agent/quotes', { plan_id: 'embed-starter', wallet_address: '0x12' }, '/wallet_address'],
      ['an unknown plan', '/api/catalog/agent/quotes', { plan_id: 'gold', wallet_address: '0x00000000000000000000000000000000000000A1' }, '/plan_id'],
      ['no plan', '/api/catalog/agent/upgrades', { wallet_address: '0x00000000000000000000000000000000000000A1' }, '/plan_id'],
      ['an extra member', '/api/catalog/agent/renewals', { wallet_address: '0x00000000000000000000000000000000000000A1', plan_id: 'embed-starter' }, '/plan_id'],
    ];
    for (const [what, path, body, field] of cases) {
      it(`refuses ${what} at ${path} with 422 naming ${field}, storing nothing`, async function () {
        const res = await http().post(path).send({ workflow_id: workflowId, ...body }).expect(422);
        expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.include(field);
        expect(await rows('catalog_agent_quotes')).to.equal(0);
      });
    }

    it('refuses a quote for an unknown install (422 naming /workflow_id) or an unverified one (409)', async function () {
      const unknown = await http().post('/api/catalog/agent/quotes').send({ workflow_id: '00000000-0000-4000-8000-000000000000', plan_id: 'embed-starter', wallet_address: paid.payers[1].address }).expect(422);
      expect(unknown.body.error.details.fields[0].path).to.equal('/workflow_id');
      const started = await http().post('/api/catalog/free-installs/start').send({ site_origin: site.origin, offering_id: 'embedded-check' }).expect(201);
      const unverified = await http().post('/api/catalog/agent/quotes').send({ workflow_id: started.body.workflow_id, plan_id: 'embed-starter', wallet_address: paid.payers[1].address }).expect(409);
      expect(unverified.body.error.code).to.equal('install_not_verified');
      expect(await rows('catalog_agent_quotes')).to.equal(0);
    });

    it('refuses a malformed quote id with 422 naming it, and an unknown one with 404', async function () {
      const bad = await http().post('/api/catalog/agent/payments/nope').expect(422);
      expect(bad.body.error.details.fields[0].path).to.equal('path:quote_id');
      await http().get('/api/catalog/agent/payments/00000000-0000-4000-8000-000000000000').expect(404);
      await http().post('/api/catalog/agent/payments/00000000-0000-4000-8000-000000000000/retry-activation').expect(404);
    });

    it('refuses a payment body with anything but the legacy tx_hash (422 naming the field) before any payment', async function () {
      const q = await quote(paid.payers[1]);
      const res = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).send({ plan_id: 'embed-growth' }).expect(422);
      expect(res.body.error.details.fields[0].path).to.equal('/plan_id');
      const badHash = await http().post(`/api/catalog/agent/payments/${q.quote_id}`).send({ tx_hash: 'nope' }).expect(422);
      expect(badHash.body.error.details.fields[0].path).to.equal('/tx_hash');
      expect(await rows('payment_authorizations')).to.equal(0);
    });
  });
});
