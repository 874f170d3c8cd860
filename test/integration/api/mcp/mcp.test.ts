import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequirements } from '@x402/core/types';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createApp } from '../../../../api/app';
import { apiOperations } from '../../../../api/routes';
import { PRODUCTS } from '../../../../shared/products';
import { listenToFeed, type FeedListener } from '../../../helpers/feed-listener';
import { startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const BASIC = 50_000;
const ALLOWED_ORIGIN = 'https://agents.example';

function session(wallet: string, extra: Record<string, unknown> = {}) {
  return {
    wallet_address: wallet,
    proposed_text: "Oh no, I'm so sorry. That's a rough week. Want me to call you tonight so we can sort out the flights together?",
    response_delay_seconds: 14,
    target_profile: 'grief-support-peer',
    ...extra,
  };
}

describe('POST /api/mcp (MCP Streamable HTTP, x402 over MCP; official SDK client)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let server: HttpServer;
  let url: URL;
  let client: Client;
  let payer: PrivateKeyAccount;
  let feed: FeedListener;

  before(async function () {
    paid = await startPaidStack('mcp', { env: { MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN } });
    payer = paid.payers[1];
    server = createServer(createApp(paid.stack.deps).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`);
    client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    feed = await listenToFeed(paid.stack.config.redis.queuePrefix);
  });
  after(async function () {
    await client?.close();
    await feed?.close();
    await new Promise((resolve) => server?.close(resolve));
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  // The unpaid call: the PaymentRequired object as an isError result.
  async function challenge(name: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).to.equal(true);
    const required = result.structuredContent as { x402Version: number; error: string; resource: { url: string }; accepts: PaymentRequirements[] };
    expect(JSON.parse((result.content[0] as { text: string }).text)).to.deep.equal(required);
    return required;
  }

  async function callPaid(name: string, args: Record<string, unknown>, payment: unknown) {
    return (await client.callTool({ name, arguments: args, _meta: { 'x402/payment': payment } })) as CallToolResult;
  }

  it('initializes as a stateless server with tools', async function () {
    expect(client.getServerVersion()).to.include({ name: 'humanlike', version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).to.be.an('object');
  });

  it('lists one tool per paid catalog product the service sells, with its HTTP body schema, and the free tools', async function () {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const served = new Set(apiOperations(paid.stack.config).map((op) => `${op.method.toUpperCase()} ${op.path}`));
    const sold = Object.values(PRODUCTS).filter((p) => served.has(`POST ${p.path}`));
    expect(sold.map((p) => p.id)).to.include.members(['simulate', 'bundle', 'stress-test', 'rewrite', 'script-check', 'progress', 'training-dataset']);
    for (const product of sold) expect(names, product.id).to.include(product.id);
    expect(names).to.include.members(['list-profiles', 'score', 'pricing', 'quote', 'leaderboard', 'result', 'stats']);
    const simulate = tools.find((t) => t.name === 'simulate')!;
    expect(simulate.inputSchema.required).to.deep.equal(['wallet_address', 'proposed_text', 'response_delay_seconds', 'target_profile']);
    expect(simulate.inputSchema.properties).to.have.property('tier');
  });

  it('calls free tools: profiles, and a free score under the same consent rule as HTTP', async function () {
    const profiles = (await client.callTool({ name: 'list-profiles', arguments: {} })) as CallToolResult;
    expect(profiles.isError).to.not.equal(true);
    expect((profiles.structuredContent as { count: number }).count).to.equal(28);

    const refused = (await client.callTool({ name: 'score', arguments: { proposed_text: 'Hello there', response_delay_seconds: 3 } })) as CallToolResult;
    expect(refused.isError).to.equal(true);
    expect((refused.structuredContent as { error: { code: string } }).error.code).to.equal('data_consent_required');

    const scored = (await client.callTool({
      name: 'score',
      arguments: { data_consent: true, proposed_text: 'Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?', response_delay_seconds: 45, target_profile: 'grief-support-peer' },
    })) as CallToolResult;
    expect(scored.isError, JSON.stringify(scored)).to.not.equal(true);
    const body = scored.structuredContent as { score: { eq_score: number }; free_tier: { used: number } };
    expect(body.score.eq_score).to.be.within(0, 100);
    expect(body.free_tier.used).to.equal(1);
  });

  it('quotes a paid tool without charging, with the tool as the resource', async function () {
    const result = (await client.callTool({ name: 'quote', arguments: { tool: 'simulate', tier: 'deep' } })) as CallToolResult;
    expect(result.isError).to.not.equal(true);
    const quote = result.structuredContent as { resource: { url: string }; accepts: Array<{ amount: string }> };
    expect(quote.resource.url).to.equal('mcp://tool/simulate');
    expect(quote.accepts[0].amount).to.equal('180000');
    expect(await paid.count('payment_authorizations')).to.equal(0);
  });

  it('pays a simulate call over MCP: challenge, signed retry, result with the settlement response; exactly the price moves; on the ledger and the feed', async function () {
    const args = session(payer.address);
    const required = await challenge('simulate', args);
    expect(required).to.include({ x402Version: 2, error: 'payment_required' });
    expect(required.resource.url).to.equal('mcp://tool/simulate');
    expect(required.accepts[0]).to.include({ scheme: 'exact', amount: String(BASIC) });
    expect(await paid.count('payment_authorizations')).to.equal(0);

    const balance = await paid.balanceOf(payer.address);
    const feedBefore = feed.events.length;
    const signed = await signPayment(payer, required.accepts[0], required.resource.url);
    const result = await callPaid('simulate', args, signed.payload);
    expect(result.isError, JSON.stringify(result)).to.not.equal(true);
    const body = result.structuredContent as { result_id: string; tier: string; score: { eq_score: number }; payment: { transaction: string } };
    expect(body.tier).to.equal('basic');
    expect(body.score.eq_score).to.be.within(0, 100);
    const receipt = result._meta?.['x402/payment-response'] as { success: boolean; transaction: string; payer: string; network: string };
    expect(receipt).to.include({ success: true, payer: payer.address, network: 'eip155:8453' });
    expect(receipt.transaction).to.match(/^0x[0-9a-f]{64}$/).and.equal(body.payment.transaction);
    expect(await paid.balanceOf(payer.address)).to.equal(balance - BigInt(BASIC));

    const ledger = (await paid.stack.deps.dataSource.query(`SELECT product, tier, result_id, transaction, amount FROM ledger_sessions`)) as Array<Record<string, unknown>>;
    expect(ledger).to.deep.equal([{ product: 'simulate', tier: 'basic', result_id: body.result_id, transaction: receipt.transaction, amount: String(BASIC) }]);
    const events = await feed.waitFor(feedBefore + 1);
    expect(events.slice(feedBefore).map((e) => [e.product, e.result_id, e.amount])).to.deep.include(['simulate', body.result_id, String(BASIC)]);

    // The same payment again: the stored delivery, no second charge.
    const replay = await callPaid('simulate', args, signed.payload);
    expect(replay.isError).to.not.equal(true);
    expect((replay.structuredContent as { result_id: string }).result_id).to.equal(body.result_id);
    expect(replay._meta?.['humanlike/payment-replayed']).to.equal(true);
    expect(await paid.balanceOf(payer.address)).to.equal(balance - BigInt(BASIC));
    expect(await paid.count('ledger_sessions')).to.equal(1);

    // The same payment for another request is a 409 refusal, as on HTTP.
    const reused = await callPaid('simulate', { ...args, response_delay_seconds: 15 }, signed.payload);
    expect(reused.isError).to.equal(true);
    expect((reused.structuredContent as { error: { code: string; status: number } }).error).to.include({ code: 'payment_already_used', status: 409 });
  });

  it('refuses a payment signed for the HTTP path (resource mismatch), without charging', async function () {
    const args = session(payer.address);
    const required = await challenge('simulate', args);
    const balance = await paid.balanceOf(payer.address);
    const signed = await signPayment(payer, required.accepts[0], `http://humanlike.test${PRODUCTS.simulate.path}`);
    const refused = await callPaid('simulate', args, signed.payload);
    expect(refused.isError).to.equal(true);
    expect(refused.structuredContent).to.include({ error: 'resource_mismatch' });
    expect(await paid.balanceOf(payer.address)).to.equal(balance);
  });

  it('answers invalid arguments with the validation error, before any payment', async function () {
    const result = (await client.callTool({ name: 'simulate', arguments: { wallet_address: 'nope' } })) as CallToolResult;
    expect(result.isError).to.equal(true);
    const error = (result.structuredContent as { error: { code: string; details: { fields: Array<{ path: string }> } } }).error;
    expect(error.code).to.equal('validation_failed');
    expect(error.details.fields.map((f) => f.path)).to.include.members(['/wallet_address', '/proposed_text']);
  });

  describe('HTTP and JSON-RPC edges', function () {
    const rpcHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

    it('answers GET and DELETE with 405 and Allow: POST', async function () {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(url, { method, headers: { Accept: 'text/event-stream' } });
        expect(res.status, method).to.equal(405);
        expect(res.headers.get('allow')).to.equal('POST');
        expect(((await res.json()) as { jsonrpc: string }).jsonrpc).to.equal('2.0');
      }
    });

    it('answers a body that is not JSON with -32700, and a message that is not JSON-RPC with -32600, never a 500', async function () {
      const parse = await fetch(url, { method: 'POST', headers: rpcHeaders, body: '{"jsonrpc": "2.0", "method": ' });
      expect(parse.status).to.equal(400);
      expect(((await parse.json()) as { error: { code: number } }).error.code).to.equal(-32700);
      const invalid = await fetch(url, { method: 'POST', headers: rpcHeaders, body: JSON.stringify({ hello: 'world' }) });
      expect(invalid.status).to.equal(400);
      expect(((await invalid.json()) as { error: { code: number } }).error.code).to.equal(-32600);
    });

    it('answers malformed tools/call params with -32602 and one short sentence, not an internal error', async function () {
      for (const params of [{ name: 'score', arguments: 'x' }, { name: 42 }, { arguments: {} }]) {
        const res = await fetch(url, { method: 'POST', headers: rpcHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }) });
        const body = (await res.json()) as { id: number; error: { code: number; message: string } };
        expect(body.id, JSON.stringify(params)).to.equal(7);
        expect(body.error.code, JSON.stringify(params)).to.equal(-32602);
        expect(body.error.message).to.match(/^Invalid params: /);
        expect(body.error.message.length).to.be.below(160);
        expect(body.error.message).not.to.match(/[[{]/);
      }
    });

    it('answers an unknown tool with a JSON-RPC error', async function () {
      const res = await fetch(url, {
        method: 'POST',
        headers: rpcHeaders,
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'no-such-tool', arguments: {} } }),
      });
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { id: number; error: { code: number } };
      expect(body).to.include({ id: 7 });
      expect(body.error.code).to.equal(-32602);
    });

    it('refuses a browser Origin that is not allowed (403), and serves an allowed one', async function () {
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const forbidden = await fetch(url, { method: 'POST', headers: { ...rpcHeaders, Origin: 'http://evil.example' }, body: list });
      expect(forbidden.status).to.equal(403);
      expect(((await forbidden.json()) as { error: { code: number } }).error.code).to.equal(-32000);
      for (const origin of [ALLOWED_ORIGIN, 'http://humanlike.test']) {
        const allowed = await fetch(url, { method: 'POST', headers: { ...rpcHeaders, Origin: origin }, body: list });
        expect(allowed.status, origin).to.equal(200);
      }
    });
  });
});
