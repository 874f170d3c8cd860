import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequirements } from '@x402/core/types';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createApp } from '../../../../api/app';
import { mintCredential } from '../../../../shared/operators/credentials';
import { PRODUCTS } from '../../../../shared/products';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment, type SignedPayment } from '../../../helpers/x402-payments';
import { runProofCardRefresh } from '../../../helpers/proof-card-refresh';

const PROFILE = 'grief-support-peer';
// Scored against duel prompt 1 for grief-support-peer, this reply passes (no fee escalation).
const WARM = 'Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?';

type PaymentRequired = { x402Version: number; error: string; resource: { url: string }; accepts: PaymentRequirements[]; [k: string]: unknown };
type ErrorBody = { error: { code: string; status: number } };

function session(wallet: string, extra: Record<string, unknown> = {}) {
  return { wallet_address: wallet, proposed_text: WARM, response_delay_seconds: 14, target_profile: PROFILE, ...extra };
}

function duelEntry(wallet: string, extra: Record<string, unknown> = {}) {
  return { wallet_address: wallet, target_profile: PROFILE, prompt_id: 1, proposed_text: WARM, response_delay_seconds: 45, ...extra };
}

describe('every paid product over MCP (official SDK client): duel, role-play, bundle tokens, refused settlement, proof-card evidence, canary', function () {
  this.timeout(120_000);
  let paid: PaidStack;
  let server: HttpServer;
  let url: URL;
  let client: Client;
  let operatorToken: string;

  before(async function () {
    // The proof-card snapshot changes only when a test runs the refresh.
    paid = await startPaidStack('mcp-products', { env: { PROOF_CARD_REFRESH_MS: '3600000' } });
    await paid.stack.truncate();
    server = createServer(createApp(paid.stack.deps).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`);
    client = await connect();
    operatorToken = (await mintCredential(paid.stack.deps.dataSource, 'operator', 3600, 'canary')).token;
  });
  after(async function () {
    await client?.close();
    await new Promise((resolve) => server?.close(resolve));
    await paid?.close();
  });
  afterEach(function () {
    paid.proxy.reset();
  });

  async function connect(headers: Record<string, string> = {}): Promise<Client> {
    const c = new Client({ name: 'mcp-products-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    return c;
  }

  async function call(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>, via: Client = client): Promise<CallToolResult> {
    return (await via.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;
  }

  async function challenge(name: string, args: Record<string, unknown>, via: Client = client): Promise<PaymentRequired> {
    const result = await call(name, args, undefined, via);
    expect(result.isError, JSON.stringify(result)).to.equal(true);
    const required = result.structuredContent as PaymentRequired;
    expect(required, JSON.stringify(required)).to.include({ x402Version: 2, error: 'payment_required' });
    expect(required.resource.url).to.equal(`mcp://tool/${name}`);
    return required;
  }

  async function sign(account: PrivateKeyAccount, required: PaymentRequired): Promise<SignedPayment> {
    return signPayment(account, required.accepts[0], required.resource.url);
  }

  // The unpaid call, then the signed retry; the delivered result.
  async function buy(name: string, account: PrivateKeyAccount, args: Record<string, unknown>, via: Client = client) {
    const required = await challenge(name, args, via);
    const signed = await sign(account, required);
    const result = await call(name, args, { 'x402/payment': signed.payload }, via);
    expect(result.isError, JSON.stringify(result)).to.not.equal(true);
    return { required, signed, result, body: result.structuredContent as Record<string, unknown> };
  }

  it('lists a tool for every product the service sells (from the catalog and the OpenAPI paths), and the free duel and role-play tools', async function () {
    const document = (await paid.stack.http.get('/api/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const sold = Object.values(PRODUCTS).filter((p) => document.paths[p.path]?.post !== undefined);
    expect(sold.length).to.be.greaterThan(5);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const product of sold) {
      const tool = tools.find((t) => t.name === product.id);
      expect(tool, `${product.id} is sold at POST ${product.path} but is no tool`).to.not.equal(undefined);
      expect(tool!.description).to.include(`POST ${product.path}`);
    }
    // Nothing the catalog does not serve is offered as a paid tool.
    const unsold = Object.values(PRODUCTS).filter((p) => !sold.includes(p));
    for (const product of unsold) expect(names, product.id).to.not.include(product.id);
    expect(names).to.include.members(['duel-prompts', 'duel-open', 'duel-state', 'roleplay-open', 'roleplay-feelings', 'roleplay-join', 'roleplay-turn', 'roleplay-room']);
    const duel = tools.find((t) => t.name === 'duel')!;
    expect(duel.inputSchema.required).to.include.members(['wallet_address', 'prompt_id', 'target_profile', 'proposed_text']);
  });

  it('opens a paid duel over MCP (the fee terms in the challenge), lists it with the free tools, and a join retry replays instead of being refused', async function () {
    const [a, b] = paid.payers;
    const balance = await paid.balanceOf(a.address);
    const prompts = await call('duel-prompts', {});
    expect((prompts.structuredContent as { prompts: Array<{ prompt_id: number; profiles: string[] }> }).prompts[0]).to.include({ prompt_id: 1 });

    const required = await challenge('duel', duelEntry(a.address));
    expect(required.duel_fee).to.include({ failures: 0, multiplier: 1 });
    expect(required.accepts[0].amount).to.equal(String(PRODUCTS.duel.tiers[PRODUCTS.duel.defaultTier].price.usdcUnits));
    const signed = await sign(a, required);
    const created = await call('duel', duelEntry(a.address), { 'x402/payment': signed.payload });
    expect(created.isError, JSON.stringify(created)).to.not.equal(true);
    const body = created.structuredContent as { marker: string; duel_id: string; challenge_url: string; status: string };
    expect(body).to.include({ marker: 'DUEL_CREATED', status: 'open' });
    expect(body.challenge_url).to.equal(`${PUBLIC_BASE_URL}/api/duel/${body.duel_id}`);
    expect(created._meta?.['x402/payment-response']).to.include({ success: true });
    expect(await paid.balanceOf(a.address)).to.equal(balance - BigInt(required.accepts[0].amount));

    const open = (await call('duel-open', {})).structuredContent as { count: number; duels: Array<{ duel_id: string }> };
    expect(open.duels.map((d) => d.duel_id)).to.include(body.duel_id);
    expect(JSON.stringify(open)).to.not.include(a.address.slice(2, 12));
    const state = await call('duel-state', { duel_id: body.duel_id });
    expect(state.structuredContent).to.include({ duel_id: body.duel_id, status: 'open' });
    const missing = await call('duel-state', { duel_id: '00000000-0000-4000-8000-000000000000' });
    expect([missing.isError, (missing.structuredContent as ErrorBody).error.code]).to.deep.equal([true, 'duel_not_found']);

    // B joins and resolves it; B's retry of the same payment (a lost answer) gets the stored result,
    // not duel_resolved: the stored authorization is read from _meta as from PAYMENT-SIGNATURE.
    const join = duelEntry(b.address, { duel_id: body.duel_id });
    const bought = await buy('duel', b, join);
    expect(bought.body).to.include({ duel_id: body.duel_id, status: 'resolved', role: 'opponent' });
    const bBalance = await paid.balanceOf(b.address);
    const retry = await call('duel', join, { 'x402/payment': bought.signed.payload });
    expect(retry.isError, JSON.stringify(retry)).to.not.equal(true);
    expect(retry._meta?.['humanlike/payment-replayed']).to.equal(true);
    expect((retry.structuredContent as { leg: unknown }).leg).to.deep.equal((bought.body as { leg: unknown }).leg);
    expect(await paid.balanceOf(b.address)).to.equal(bBalance);
    // Without the payment the resolved duel refuses before any charge.
    const refused = await call('duel', join);
    expect([refused.isError, (refused.structuredContent as ErrorBody).error.code]).to.deep.equal([true, 'duel_resolved']);
  });

  it('opens a paid role-play room over MCP with its session secret in the result (once), and joins and reads it with the free tools', async function () {
    const [, , c] = paid.payers;
    const { body, signed } = await buy('roleplay', c, { wallet_address: c.address, open_to_any_partner: true });
    const opened = body as { room_id: string; session_secret: string; state: string };
    expect(opened.session_secret).to.match(/^hlr_/);
    expect(opened.state).to.equal('open');
    const replay = await call('roleplay', { wallet_address: c.address, open_to_any_partner: true }, { 'x402/payment': signed.payload });
    expect(replay._meta?.['humanlike/payment-replayed']).to.equal(true);
    expect(replay.structuredContent).to.include({ room_id: opened.room_id, session_secret: null });

    const listed = (await call('roleplay-open', {})).structuredContent as { rooms: Array<{ room_id: string }> };
    expect(listed.rooms.map((r) => r.room_id)).to.include(opened.room_id);
    expect(JSON.stringify(listed)).to.not.include('hlr_');
    const feelings = (await call('roleplay-feelings', {})).structuredContent as { feelings: unknown[] };
    expect(feelings.feelings).to.not.be.empty;

    const joined = (await call('roleplay-join', { room_id: opened.room_id })).structuredContent as { session_secret: string };
    expect(joined.session_secret).to.match(/^hlr_/).and.not.equal(opened.session_secret);
    const again = await call('roleplay-join', { room_id: opened.room_id });
    expect([again.isError, (again.structuredContent as ErrorBody).error.code]).to.deep.equal([true, 'room_already_joined']);

    const mine = (await call('roleplay-room', { room_id: opened.room_id, session_secret: opened.session_secret })).structuredContent as Record<string, unknown>;
    const everyone = (await call('roleplay-room', { room_id: opened.room_id })).structuredContent as Record<string, unknown>;
    expect(JSON.stringify(mine)).to.not.equal(JSON.stringify(everyone));
    const wrong = await call('roleplay-room', { room_id: opened.room_id, session_secret: 'hlr_not-the-secret' });
    expect([wrong.isError, (wrong.structuredContent as ErrorBody).error.code]).to.deep.equal([true, 'invalid_session_secret']);
    // The opener's first turn (an ask) over MCP, by its secret.
    const turn = await call('roleplay-turn', {
      room_id: opened.room_id,
      session_secret: opened.session_secret,
      text: 'My dog died on Tuesday and I keep walking to the door to let him in.',
      response_delay_seconds: 20,
      feeling: (feelings.feelings[0] as { id: string }).id,
    });
    expect(turn.isError, JSON.stringify(turn)).to.not.equal(true);
  });

  it('pays a basic session over MCP with a bundle token in _meta["humanlike/bundle-token"]', async function () {
    const [, , , d] = paid.payers;
    const { body } = await buy('bundle', d, { wallet_address: d.address, plan: 'bundle' });
    const token = (body as { bundle_token: string }).bundle_token;
    expect(token).to.match(/^hlb_/);
    const balance = await paid.balanceOf(d.address);
    const ledgerBefore = await paid.count('ledger_sessions');

    const scored = await call('simulate', session(d.address), { 'humanlike/bundle-token': token });
    expect(scored.isError, JSON.stringify(scored)).to.not.equal(true);
    const result = scored.structuredContent as { result_id: string; tier: string; score: { eq_score: number } };
    expect(result.tier).to.equal('basic');
    expect(result.score.eq_score).to.be.within(0, 100);
    expect(await paid.balanceOf(d.address)).to.equal(balance);
    // A credit is no chain transfer and no ledger row, as on HTTP.
    expect(await paid.count('ledger_sessions')).to.equal(ledgerBefore);
    const credits = (await paid.stack.http.get('/api/bundle/balance').set('X-BUNDLE-TOKEN', token).expect(200)).body as { credits_remaining: number };
    expect(credits.credits_remaining).to.equal(999);

    // A deep session is not a bundle credit's: refused before anything is spent.
    const deep = await call('simulate', session(d.address, { tier: 'deep' }), { 'humanlike/bundle-token': token });
    expect([deep.isError, (deep.structuredContent as ErrorBody).error.code]).to.deep.equal([true, 'bundle_basic_only']);
  });

  it('answers a refused settlement with the PaymentRequired result and no output; nothing moves', async function () {
    const [, , , , e] = paid.payers;
    const args = session(e.address, { response_delay_seconds: 21 });
    const required = await challenge('simulate', args);
    const signed = await sign(e, required);
    const balance = await paid.balanceOf(e.address);
    const ledgerBefore = await paid.count('ledger_sessions');
    paid.proxy.set('/settle', 'refuse');
    const refused = await call('simulate', args, { 'x402/payment': signed.payload });
    expect(refused.isError, JSON.stringify(refused)).to.equal(true);
    const body = refused.structuredContent as PaymentRequired;
    expect(body).to.include({ x402Version: 2, error: 'settlement_failed' });
    expect(body.accepts[0]).to.include({ amount: required.accepts[0].amount });
    for (const output of ['result_id', 'score', 'tier']) expect(body).to.not.have.property(output);
    expect(refused._meta?.['x402/payment-response']).to.include({ success: false, errorReason: 'invalid_exact_evm_insufficient_balance' });
    expect(await paid.balanceOf(e.address)).to.equal(balance);
    expect(await paid.count('ledger_sessions')).to.equal(ledgerBefore);
  });

  describe('proof-card evidence', function () {
    const maintenanceQueue = () => paid.stack.deps.queues.find((q) => q.name === 'maintenance')!;
    const COUNTERS = ['payment_challenges', 'payment_retries', 'payment_verifications', 'payment_settlements', 'deliveries', 'test_or_canary_invocations'] as const;

    async function counters(): Promise<Record<(typeof COUNTERS)[number], number>> {
      await runProofCardRefresh(maintenanceQueue());
      const { evidence } = (await paid.stack.http.get('/api/proof-cards/simulate').expect(200)).body as { evidence: Record<string, number> };
      return Object.fromEntries(COUNTERS.map((k) => [k, evidence[k]])) as Record<(typeof COUNTERS)[number], number>;
    }

    function delta(before: Record<string, number>, after: Record<string, number>) {
      return Object.fromEntries(COUNTERS.map((k) => [k, after[k] - before[k]]));
    }

    it('counts a paid MCP call exactly like an HTTP one: challenge, retry, verification, settlement, delivery; a replay is no delivery', async function () {
      const [, , , , , f] = paid.payers;
      const before = await counters();
      const args = session(f.address, { response_delay_seconds: 33 });
      const { signed } = await buy('simulate', f, args);
      const afterPaid = await counters();
      expect(delta(before, afterPaid)).to.deep.equal({
        payment_challenges: 1,
        payment_retries: 1,
        payment_verifications: 1,
        payment_settlements: 1,
        deliveries: 1,
        test_or_canary_invocations: 0,
      });
      const replay = await call('simulate', args, { 'x402/payment': signed.payload });
      expect(replay._meta?.['humanlike/payment-replayed']).to.equal(true);
      expect(delta(afterPaid, await counters())).to.deep.equal({
        payment_challenges: 0,
        payment_retries: 1,
        payment_verifications: 0,
        payment_settlements: 0,
        deliveries: 0,
        test_or_canary_invocations: 0,
      });
    });

    it('counts an MCP call carrying an operator credential only under test_or_canary_invocations', async function () {
      const [, , , , , , g] = paid.payers;
      const canary = await connect({ Authorization: `Bearer ${operatorToken}` });
      try {
        const before = await counters();
        const ledgerBefore = await paid.count('ledger_sessions');
        await buy('simulate', g, session(g.address, { response_delay_seconds: 27 }), canary);
        // Served normally (paid and ledgered), counted apart.
        expect(await paid.count('ledger_sessions')).to.equal(ledgerBefore + 1);
        expect(delta(before, await counters())).to.deep.equal({
          payment_challenges: 0,
          payment_retries: 0,
          payment_verifications: 0,
          payment_settlements: 0,
          deliveries: 0,
          test_or_canary_invocations: 2,
        });
      } finally {
        await canary.close();
      }
    });
  });
});
