import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { createApp } from '../../../../api/app';
import { roleForPath } from '../../../../api/http/operator-guard';
import { mintCredential } from '../../../../shared/operators/credentials';
import { PRODUCTS } from '../../../../shared/products';
import { startPaidStack, PUBLIC_BASE_URL, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
}

interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

// The two kinds of string no field may hold: one PostgreSQL cannot store, one with no UTF-8 form.
const BAD = { nul: 'hello\u0000 friend', surrogate: 'hello \ud800 friend' } as const;

const isString = (s: JsonSchema) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')) || (s.enum?.every((v) => typeof v === 'string') ?? false);

// Every JSON pointer at which the schema takes a string (array items at index 0).
function stringPointers(schema: JsonSchema | undefined, at = ''): string[] {
  if (!schema) return [];
  const out: string[] = [];
  if (isString(schema) && at !== '') out.push(at);
  for (const [name, member] of Object.entries(schema.properties ?? {})) out.push(...stringPointers(member, `${at}/${name}`));
  if (schema.items) out.push(...stringPointers(schema.items, `${at}/0`));
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) out.push(...stringPointers(branch, at));
  return [...new Set(out)];
}

// A value holding `leaf` at `pointer` and nothing else.
function valueAt(pointer: string, leaf: unknown): unknown {
  const steps = pointer.split('/').slice(1);
  const build = (i: number): unknown => {
    if (i === steps.length) return leaf;
    return steps[i] === '0' ? [build(i + 1)] : { [steps[i]]: build(i + 1) };
  };
  return build(0);
}

describe('strings no field may hold: NUL and lone surrogates, in every field of every endpoint', function () {
  this.timeout(120_000);
  let paid: PaidStack;
  let server: Server;
  let base: string;
  let operations: Array<{ method: string; path: string; op: Operation }>;
  const tokens: Record<string, string> = {};
  let payment: string;
  let balance: bigint;

  before(async function () {
    paid = await startPaidStack('storable-text', { worker: false });
    server = createServer(createApp(paid.stack.deps).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
    tokens.admin = (await mintCredential(paid.stack.deps.dataSource, 'admin', 3_600)).token;
    tokens.operator = (await mintCredential(paid.stack.deps.dataSource, 'operator', 3_600)).token;
    // A real, valid authorization rides on every request: none of them may take it.
    const payer = paid.payers[2];
    balance = await paid.balanceOf(payer.address);
    payment = (await signPayment(payer, paid.requirement(1_000_000), `${PUBLIC_BASE_URL}${PRODUCTS.simulate.path}`)).header;
  });

  after(async function () {
    await new Promise((resolve) => server?.close(resolve));
    await paid?.close();
  });

  const headersFor = (path: string): Record<string, string> => {
    const role = roleForPath(path);
    return { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': payment, ...(role ? { Authorization: `Bearer ${tokens[role]}` } : {}) };
  };
  const concrete = (path: string, value = 'x') => path.replace(/\{[^}]+\}/g, value);

  async function expectRefused(res: Response, field: string, what: string): Promise<void> {
    const text = await res.text();
    expect(res.status, `${what}: ${text}`).to.equal(422);
    const fields = (JSON.parse(text) as { error: { details: { fields: Array<{ path: string; rule: string }> } } }).error.details.fields;
    expect(fields.map((f) => [f.path, f.rule]), what).to.deep.include([field, 'storable_text']);
  }

  it('refuses each in every string field of every JSON body, naming the field', async function () {
    // The MCP endpoint's body is JSON-RPC; its tools' arguments are checked below.
    const cases = operations.filter(({ path }) => path !== '/api/mcp').flatMap(({ method, path, op }) => stringPointers(op.requestBody?.content?.['application/json']?.schema).map((pointer) => ({ method, path, pointer })));
    // The document must describe bodies with strings, or this test checks nothing.
    expect(cases.length).to.be.greaterThan(40);
    for (const { method, path, pointer } of cases) {
      for (const [kind, bad] of Object.entries(BAD)) {
        const res = await fetch(`${base}${concrete(path)}`, { method, headers: headersFor(path), body: JSON.stringify(valueAt(pointer, bad)) });
        await expectRefused(res, pointer, `${method} ${path} ${pointer} (${kind})`);
      }
    }
  });

  it('refuses them in a member name too', async function () {
    const res = await fetch(`${base}/api/outreach/status`, { method: 'POST', headers: headersFor('/api/outreach/status'), body: JSON.stringify({ 'lead\u0000': true }) });
    await expectRefused(res, '/lead\u0000', 'a member name');
  });

  it('refuses NUL in every query parameter and every path parameter', async function () {
    let queries = 0;
    let paths = 0;
    for (const { method, path, op } of operations) {
      for (const p of op.parameters ?? []) {
        if (p.in === 'query' && p.schema && isString(p.schema)) {
          queries += 1;
          const res = await fetch(`${base}${concrete(path)}?${p.name}=a%00b`, { method, headers: headersFor(path), body: method === 'GET' ? undefined : '{}' });
          await expectRefused(res, `/${p.name}`, `${method} ${path}?${p.name}`);
        }
        if (p.in === 'path') {
          paths += 1;
          const res = await fetch(`${base}${concrete(path, 'a%00b')}`, { method, headers: headersFor(path), body: method === 'GET' ? undefined : '{}' });
          await expectRefused(res, 'path', `${method} ${path} {${p.name}}`);
        }
      }
    }
    expect(queries).to.be.greaterThan(3);
    expect(paths).to.be.greaterThan(3);
  });

  it('refuses them in every string argument of every MCP tool', async function () {
    const client = new Client({ name: 'storable-text-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
    try {
      const { tools } = await client.listTools();
      let checked = 0;
      for (const tool of tools) {
        for (const pointer of stringPointers(tool.inputSchema as JsonSchema)) {
          for (const bad of Object.values(BAD)) {
            checked += 1;
            const result = (await client.callTool({ name: tool.name, arguments: valueAt(pointer, bad) as Record<string, unknown> })) as CallToolResult;
            expect(result.isError, `${tool.name} ${pointer}`).to.equal(true);
            const error = (result.structuredContent as { error: { code: string; details: { fields: Array<{ path: string; rule: string }> } } }).error;
            expect(error.code, `${tool.name} ${pointer}`).to.equal('validation_failed');
            expect(error.details.fields.map((f) => [f.path, f.rule]), `${tool.name} ${pointer}`).to.deep.include([pointer, 'storable_text']);
          }
        }
      }
      expect(checked).to.be.greaterThan(20);
    } finally {
      await client.close();
    }
  });

  it('took no payment and used no free round', async function () {
    expect(await paid.count('payment_authorizations')).to.equal(0);
    expect(await paid.count('ledger_sessions')).to.equal(0);
    expect(await paid.balanceOf(paid.payers[2].address)).to.equal(balance);
    const [{ n }] = (await paid.stack.deps.dataSource.query('SELECT count(*)::int AS n FROM free_callers')) as Array<{ n: number }>;
    expect(n).to.equal(0);
  });
});
