import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { BAZAAR, validateDiscoveryExtension, validateDiscoveryExtensionSpec, type DiscoveryExtension } from '@x402/extensions/bazaar';
import { AgentCard as AgentCardMessage, type AgentCard } from '@a2a-js/sdk';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { apiOperations } from '../../../../api/routes';
import { PRODUCTS } from '../../../../shared/products';
import { startTestStack, type TestStack } from '../../../helpers/stack';
import { runCli } from '../../../helpers/cli';

const ORIGIN = 'https://humanlike.example';
const TREASURY = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures', 'discovery');

/** Every JSON manifest, at its root path. */
const MANIFESTS = [
  '/.well-known/ai-plugin.json',
  '/.well-known/ai-plugins.json',
  '/.well-known/agents.json',
  '/.well-known/agent.json',
  '/.well-known/agent-card.json',
  '/.well-known/developer-handoff.json',
  '/.well-known/mcp.json',
  '/.well-known/mcp/server-card.json',
  '/.well-known/ai-catalog.json',
];

/** The MCP endpoint answers POST only (its family serves it); a GET on it is no document. */
const POST_ONLY = new Set(['/api/mcp']);

function urlsIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (/^https?:\/\//.test(value)) found.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) urlsIn(v, found);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) urlsIn(v, found);
  }
  return found;
}

function linksInMarkdown(text: string): string[] {
  return [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]);
}

function loadJson(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
}

const cli = runCli;

describe('discovery documents', function () {
  this.timeout(60_000);
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('discovery', { worker: false, env: { PUBLIC_BASE_URL: ORIGIN, TREASURY_EVM_ADDRESS: TREASURY } });
  });

  after(async function () {
    await stack?.close();
  });

  describe('llms.txt', function () {
    it('follows the llms.txt convention: an H1, a summary blockquote, sections of links', async function () {
      const res = await stack.http.get('/llms.txt');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      const lines = res.text.split('\n');
      expect(lines[0]).to.equal('# humanlike');
      expect(lines[2]).to.match(/^> \S/);
      expect(res.text).to.match(/^## Paid endpoints/m);
      expect(res.text).to.match(/^## Free endpoints/m);
      expect(res.text).to.match(/^## How to pay/m);
      expect(res.text).to.match(/^## MCP/m);
      expect(linksInMarkdown(res.text).length).to.be.greaterThan(20);
    });

    it('lists every endpoint the OpenAPI document lists, and the MCP endpoint', async function () {
      const res = await stack.http.get('/llms.txt');
      const operations = apiOperations(stack.config);
      expect(operations.length).to.be.greaterThan(40);
      const missing = operations.map((op) => `${op.method.toUpperCase()} ${op.path}`).filter((entry) => !res.text.includes(entry));
      expect(missing).to.deep.equal([]);
      expect(res.text).to.include('POST /api/mcp');
      const openapi = await stack.http.get('/api/openapi.json');
      const documented = Object.entries(openapi.body.paths as Record<string, object>).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`));
      expect(documented.filter((entry) => !res.text.includes(entry))).to.deep.equal([]);
    });

    it('quotes every paid product at its catalog price, and the live base fee after an admin change', async function () {
      const before = await stack.http.get('/llms.txt');
      for (const product of [PRODUCTS.simulate, PRODUCTS.stressTest, PRODUCTS.rewrite, PRODUCTS.bundle]) {
        for (const tier of Object.values(product.tiers)) expect(before.text).to.include(`${tier.price.usdcUnits} USDC units`);
      }
      expect(before.text).to.include('basic 50000 USDC units (0.05 USDC; 270000 lamports');
      const ds = stack.deps.dataSource;
      await ds.query(
        `INSERT INTO network_config (simulate_base_lamports, failure_suspension_cap) VALUES (310000, 3)
         ON CONFLICT (singleton) DO UPDATE SET simulate_base_lamports = 310000`,
      );
      try {
        await stack.deps.network.refresh();
        const after = await stack.http.get('/llms.txt');
        expect(after.text).to.include('basic 50000 USDC units (0.05 USDC; 310000 lamports');
        expect(after.headers.etag).to.not.equal(before.headers.etag);
      } finally {
        await ds.query('TRUNCATE network_config');
        await stack.deps.network.refresh();
      }
    });

    it('is served at /api/llms.txt too, byte for byte', async function () {
      const [root, api] = await Promise.all([stack.http.get('/llms.txt'), stack.http.get('/api/llms.txt')]);
      expect(api.status).to.equal(200);
      expect(api.text).to.equal(root.text);
    });
  });

  describe('caching', function () {
    for (const p of ['/llms.txt', ...MANIFESTS, '/api/mcp/server-card', '/api/developer-handoff']) {
      it(`${p}: Cache-Control and ETag, 304 on a matching If-None-Match`, async function () {
        const first = await stack.http.get(p);
        expect(first.status).to.equal(200);
        expect(first.headers['cache-control']).to.match(/^public, max-age=\d+$/);
        expect(first.headers.etag).to.match(/^"[A-Za-z0-9_-]{20,}"$/);
        const again = await stack.http.get(p).set('If-None-Match', first.headers.etag);
        expect(again.status).to.equal(304);
        expect(again.text ?? '').to.equal('');
        const stale = await stack.http.get(p).set('If-None-Match', '"something-else"');
        expect(stale.status).to.equal(200);
      });
    }
  });

  describe('the manifests', function () {
    it('serves every manifest at the root and under /api, identically', async function () {
      for (const p of MANIFESTS) {
        const [root, api] = await Promise.all([stack.http.get(p), stack.http.get(`/api${p}`)]);
        expect(root.status, p).to.equal(200);
        expect(api.status, `/api${p}`).to.equal(200);
        expect(api.text).to.equal(root.text);
      }
      const [handoff, handoffApi] = await Promise.all([stack.http.get('/.well-known/developer-handoff.json'), stack.http.get('/api/developer-handoff')]);
      expect(handoffApi.text).to.equal(handoff.text);
    });

    it('the agent card is valid against the A2A JSON schema, is a v1.0 AgentCard, and declares the x402 extension', async function () {
      const res = await stack.http.get('/.well-known/agent-card.json');
      expect(res.headers['content-type']).to.match(/^application\/json/);
      const schema = loadJson('a2a-v0.3.0.schema.json');
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(schema, 'a2a.json');
      const validate = ajv.getSchema('a2a.json#/definitions/AgentCard');
      expect(validate).to.not.equal(undefined);
      expect(validate?.(res.body), JSON.stringify(validate?.errors)).to.equal(true);
      // v1.0: the members the proto marks REQUIRED, and the SDK's own JSON mapping keeps them.
      const card = res.body as AgentCard;
      expect(card.supportedInterfaces[0]).to.include({ url: `${ORIGIN}/api/mcp`, protocolVersion: '1.0' });
      const roundTrip = AgentCardMessage.toJSON(AgentCardMessage.fromJSON(card)) as Record<string, unknown>;
      for (const key of ['name', 'description', 'version', 'supportedInterfaces', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills']) {
        expect(roundTrip[key], key).to.deep.equal((card as unknown as Record<string, unknown>)[key]);
      }
      const x402 = card.capabilities?.extensions.find((e) => e.uri === 'https://github.com/google-a2a/a2a-x402/v0.1');
      expect(x402).to.include({ required: true });
      expect(x402?.description).to.match(/x402/);
      const skillIds = card.skills.map((s) => s.id);
      expect(skillIds).to.include.members(['free-score', 'simulate', 'stress-test', 'rewrite', 'bundle', 'duel', 'roleplay']);
      // A product becomes a skill only once this server serves it (its operation exists).
      const served = new Set(Object.keys((await stack.http.get('/api/openapi.json')).body.paths as Record<string, unknown>));
      for (const id of skillIds.filter((s) => s !== 'free-score' && s !== 'bundle')) expect(served.has(`/api/${id}`), id).to.equal(true);
    });

    it('the MCP server card is valid against the server-card schema, at every path it is served', async function () {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(loadJson('mcp-server-card.schema.json'), 'schema.json');
      const validate = ajv.getSchema('schema.json#/$defs/ServerCard');
      expect(validate).to.not.equal(undefined);
      for (const p of ['/api/mcp/server-card', '/.well-known/mcp/server-card.json', '/.well-known/mcp.json']) {
        const res = await stack.http.get(p);
        expect(res.headers['content-type']).to.match(/^application\/mcp-server-card\+json/);
        const card = JSON.parse(res.text) as Record<string, unknown>;
        expect(validate?.(card), `${p}: ${JSON.stringify(validate?.errors)}`).to.equal(true);
        expect(card).to.deep.include({ name: 'example.humanlike/humanlike', remotes: [{ type: 'streamable-http', url: `${ORIGIN}/api/mcp`, supportedProtocolVersions: card.remotes && (card.remotes as Array<{ supportedProtocolVersions: string[] }>)[0].supportedProtocolVersions }] });
      }
      // The schema rejects what it should (so the check above can fail).
      expect(validate?.({ $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json', name: 'no-slash', version: '1', description: 'x' })).to.equal(false);
    });

    it('the AI catalog lists the MCP server card and the agent card', async function () {
      const res = await stack.http.get('/.well-known/ai-catalog.json');
      expect(res.headers['content-type']).to.match(/^application\/ai-catalog\+json/);
      const catalog = JSON.parse(res.text) as { specVersion: string; entries: Array<{ identifier: string; type: string; url: string }> };
      expect(catalog.specVersion).to.equal('1.0');
      expect(catalog.entries).to.deep.equal([
        { identifier: 'urn:air:humanlike.example:mcp:humanlike', type: 'application/mcp-server-card+json', url: `${ORIGIN}/api/mcp/server-card` },
        { identifier: 'urn:air:humanlike.example:a2a:humanlike', type: 'application/a2a-agent-card+json', url: `${ORIGIN}/.well-known/agent-card.json` },
      ]);
    });

    it('serves the service\'s own MCP registry record out of the box, the one `humanlike admin mcp-registry` gives the key of', async function () {
      const [root, api] = await Promise.all(['/.well-known/mcp-registry-auth', '/api/.well-known/mcp-registry-auth'].map((p) => stack.http.get(p)));
      expect(root.status).to.equal(200);
      expect(root.headers['content-type']).to.match(/^text\/plain/);
      const match = /^v=MCPv1; k=ed25519; p=([A-Za-z0-9+/]{43}=)\n$/.exec(root.text);
      expect(match, root.text).to.not.equal(null);
      expect(api.text).to.equal(root.text);
      expect((await stack.http.get('/.well-known/mcp-registry-auth')).text, 'kept, not made again').to.equal(root.text);

      const printed = await cli(['admin', 'mcp-registry', '--domain', 'humanlike.example', '--json'], stack.config.db.url!);
      expect(printed.code, printed.err).to.equal(0);
      const out = JSON.parse(printed.out) as { record: string; private_key_hex: string; login: string; overridden: boolean };
      expect(`${out.record}\n`).to.equal(root.text);
      expect(out.overridden).to.equal(false);
      expect(out.login).to.equal(`mcp-publisher login http --domain humanlike.example --private-key ${out.private_key_hex}`);
      // The private key signs what the served public key verifies, as the registry checks it.
      const seed = Buffer.from(out.private_key_hex, 'hex');
      expect(seed).to.have.length(32);
      const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
      const publicKey = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(match![1], 'base64')]), format: 'der', type: 'spki' });
      const message = Buffer.from('2026-01-01T00:00:00Z');
      expect(verify(null, message, publicKey, sign(null, message, privateKey))).to.equal(true);
    });

    it('the OpenAPI document describes every discovery path', async function () {
      const res = await stack.http.get('/api/openapi.json');
      const paths = Object.keys(res.body.paths as object);
      const expected = ['/llms.txt', '/api/llms.txt', '/api/developer-handoff', '/api/mcp/server-card', '/.well-known/mcp-registry-auth', '/api/.well-known/mcp-registry-auth', '/api/starter-kit', '/api/starter-kit/{filename}'];
      expect(paths).to.include.members([...expected, ...MANIFESTS, ...MANIFESTS.map((p) => `/api${p}`)]);
    });
  });

  describe('the crawler', function () {
    it('every URL in every manifest and in llms.txt answers 200 (the MCP endpoint is POST only)', async function () {
      const urls = new Set<string>();
      const llms = await stack.http.get('/llms.txt');
      for (const u of linksInMarkdown(llms.text)) urls.add(u);
      for (const p of MANIFESTS) {
        const res = await stack.http.get(p);
        for (const u of urlsIn(JSON.parse(res.text))) urls.add(u);
      }
      const own = [...urls].filter((u) => u.startsWith(`${ORIGIN}/`));
      // Besides the base URL itself (the handoff's base_url), only the extension URI and the schema id point elsewhere.
      expect([...urls].filter((u) => !u.startsWith(`${ORIGIN}/`)).sort()).to.deep.equal([
        'https://github.com/google-a2a/a2a-x402/v0.1',
        ORIGIN,
        'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      ]);
      expect(own.length).to.be.greaterThan(30);
      const failures: string[] = [];
      let crawled = 0;
      for (const u of own) {
        const p = u.slice(ORIGIN.length);
        if (POST_ONLY.has(p)) continue;
        const res = await stack.http.get(p);
        crawled += 1;
        if (res.status !== 200) failures.push(`${p} -> ${res.status}`);
      }
      expect(failures).to.deep.equal([]);
      expect(crawled).to.be.greaterThan(30);
      // The starter kit's files are reached from the documents, each one.
      expect(own).to.include.members(['humanlike-client.mjs', 'humanlike_client.py', 'mcp-client-config.json', 'curl-examples.sh'].map((f) => `${ORIGIN}/api/starter-kit/${f}`));
    });
  });

  describe('the public base URL', function () {
    it('builds every URL from PUBLIC_BASE_URL, whatever the Origin, Host and X-Forwarded headers say', async function () {
      for (const p of ['/llms.txt', ...MANIFESTS, '/api/starter-kit']) {
        const res = await stack.http
          .get(p)
          .set('Origin', 'https://evil.example')
          .set('Host', 'evil.example')
          .set('X-Forwarded-Host', 'evil.example')
          .set('X-Forwarded-Proto', 'http');
        expect(res.status, p).to.equal(200);
        expect(res.text, p).to.not.include('evil.example');
        expect(res.text, p).to.include(ORIGIN);
      }
    });
  });

  describe('the Bazaar discovery extension', function () {
    const served = Object.values(PRODUCTS).filter((p) => ['simulate', 'stress-test', 'rewrite', 'progress', 'training-dataset', 'script-check', 'bundle'].includes(p.id));

    it('every paid product declares it in the 402 body and the PAYMENT-REQUIRED header, valid, with the request schema', async function () {
      expect(served).to.have.length(7);
      const operations = apiOperations(stack.config);
      for (const product of served) {
        const res = await stack.http.get(product.path);
        expect(res.status, product.path).to.equal(402);
        const header = decodePaymentRequiredHeader(res.headers['payment-required']);
        expect(header.extensions, product.path).to.deep.equal(res.body.extensions);
        const extension = res.body.extensions[BAZAAR.key] as DiscoveryExtension;
        expect(validateDiscoveryExtension(extension), product.path).to.deep.equal({ valid: true });
        expect(validateDiscoveryExtensionSpec(res.body.extensions[BAZAAR.key] as Record<string, unknown>).valid, product.path).to.equal(true);
        const bazaar = res.body.extensions[BAZAAR.key] as { info: { input: Record<string, unknown> }; schema: { properties: Record<string, { properties: Record<string, unknown> }> } };
        expect(bazaar.info.input).to.include({ type: 'http', method: 'POST', bodyType: 'json' });
        const op = operations.find((o) => o.method === 'post' && o.path === product.path);
        expect(bazaar.schema.properties.input.properties.body).to.deep.equal(JSON.parse(JSON.stringify(op?.body)));
        expect(bazaar.schema.properties.output.properties.example).to.deep.include(JSON.parse(JSON.stringify(op?.responses['200'].schema)));
      }
    });

    it('an unpaid POST carries it too', async function () {
      const res = await stack.http.post('/api/simulate').send({
        wallet_address: TREASURY,
        proposed_text: 'Oh no, so sorry.',
        response_delay_seconds: 45,
        target_profile: 'grief-support-peer',
      });
      expect(res.status).to.equal(402);
      expect(res.body.extensions.bazaar.info.input.body).to.have.keys('wallet_address', 'proposed_text', 'response_delay_seconds', 'target_profile');
    });
  });
});

describe('discovery documents without PUBLIC_BASE_URL', function () {
  this.timeout(60_000);

  it('behind no proxy: the request\'s own Host, never the Origin header', async function () {
    const stack = await startTestStack('discovery-host', { worker: false, env: { TRUSTED_PROXY_HOPS: '0', MCP_REGISTRY_AUTH: 'v=MCPv1; k=ed25519; p=MCowBQYDK2VwAyEAvP4bXbrPpLHSMFzFq0rLXj8Sdc0Ho6BNhOaqFV0M7P8=' } });
    try {
      const res = await stack.http.get('/.well-known/agent-card.json').set('Host', 'api.internal:8080').set('Origin', 'https://evil.example');
      expect(res.status).to.equal(200);
      expect(res.body.url).to.equal('http://api.internal:8080/api/mcp');
      expect(res.headers.vary).to.match(/Host/);
      const record = await stack.http.get('/.well-known/mcp-registry-auth');
      expect(record.status).to.equal(200);
      expect(record.headers['content-type']).to.match(/^text\/plain/);
      expect(record.text).to.equal('v=MCPv1; k=ed25519; p=MCowBQYDK2VwAyEAvP4bXbrPpLHSMFzFq0rLXj8Sdc0Ho6BNhOaqFV0M7P8=\n');
      const api = await stack.http.get('/api/.well-known/mcp-registry-auth');
      expect(api.text).to.equal(record.text);
    } finally {
      await stack.close();
    }
  });

  it('behind a trusted proxy: 503 public_base_url_not_configured, not a guess from forwarded headers', async function () {
    const stack = await startTestStack('discovery-proxy', { worker: false, env: { TRUSTED_PROXY_HOPS: '1' } });
    try {
      const res = await stack.http.get('/llms.txt').set('X-Forwarded-Host', 'evil.example');
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('public_base_url_not_configured');
    } finally {
      await stack.close();
    }
  });
});
