import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import { expect } from 'chai';
import { createApp } from '../../../../api/app';
import { apiOperations } from '../../../../api/routes';
import { STARTER_KIT_FILES, starterKitDir } from '../../../../api/starter-kit/starter-kit-files';
import { PRODUCTS } from '../../../../shared/products';
import { startPaidStack, type PaidStack } from '../../../helpers/paid-stack';

const run = promisify(execFile);
const DIR = starterKitDir(path.join(__dirname, '..', '..', '..', '..', 'api', 'starter-kit'));
const ORIGIN = 'http://humanlike.test';
const MCP_PATH = '/api/mcp';

function fileText(name: string): string {
  return readFileSync(path.join(DIR, name), 'utf8');
}

describe('starter kit', function () {
  this.timeout(120_000);
  let paid: PaidStack;

  before(async function () {
    paid = await startPaidStack('starter-kit');
  });

  after(async function () {
    await paid?.close();
  });

  describe('the index and the files', function () {
    it('lists every file with an absolute URL, its media type and size', async function () {
      const res = await paid.stack.http.get('/api/starter-kit');
      expect(res.status).to.equal(200);
      expect(res.headers.etag).to.match(/^"/);
      expect(res.headers['cache-control']).to.match(/^public, max-age=\d+$/);
      const files = res.body.files as Array<{ filename: string; url: string; media_type: string; bytes: number }>;
      expect(files.map((f) => f.filename)).to.deep.equal(['humanlike-client.mjs', 'humanlike_client.py', 'mcp-client-config.json', 'curl-examples.sh']);
      for (const f of files) {
        expect(f.url).to.equal(`${ORIGIN}/api/starter-kit/${f.filename}`);
        expect(f.bytes).to.equal(Buffer.byteLength(fileText(f.filename)));
      }
    });

    it('serves each file verbatim with its content type, and 304 on a matching If-None-Match', async function () {
      const types: Record<string, RegExp> = {
        'humanlike-client.mjs': /^text\/javascript; charset=utf-8$/,
        'humanlike_client.py': /^text\/x-python; charset=utf-8$/,
        'mcp-client-config.json': /^application\/json/,
        'curl-examples.sh': /^text\/x-shellscript; charset=utf-8$/,
      };
      expect(STARTER_KIT_FILES.map((f) => f.filename)).to.have.members(Object.keys(types));
      for (const [name, type] of Object.entries(types)) {
        const res = await paid.stack.http.get(`/api/starter-kit/${name}`).buffer(true).parse((r, cb) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (chunk: string) => (text += chunk));
          r.on('end', () => cb(null, text));
        });
        expect(res.status, name).to.equal(200);
        expect(res.headers['content-type'], name).to.match(type);
        expect(res.body, name).to.equal(fileText(name));
        const again = await paid.stack.http.get(`/api/starter-kit/${name}`).set('If-None-Match', res.headers.etag);
        expect(again.status, name).to.equal(304);
      }
    });

    it('answers 404 for an unknown name and for every path traversal attempt', async function () {
      for (const p of [
        '/api/starter-kit/nope.txt',
        '/api/starter-kit/..%2F..%2Fpackage.json',
        '/api/starter-kit/%2e%2e%2f%2e%2e%2fpackage.json',
        '/api/starter-kit/..%5C..%5Cpackage.json',
        '/api/starter-kit/starter-kit-files.ts',
        '/api/starter-kit/files%2Fcurl-examples.sh',
        '/api/starter-kit/..',
      ]) {
        const res = await paid.stack.http.get(p);
        expect(res.status, p).to.equal(404);
        expect(res.text, p).to.not.include('"name": "humanlike"');
      }
      const unknown = await paid.stack.http.get('/api/starter-kit/nope.txt');
      expect(unknown.body.error.code).to.equal('starter_kit_file_not_found');
    });
  });

  describe('each file works', function () {
    it('the MCP client configuration parses and points at the MCP endpoint', function () {
      const config = JSON.parse(fileText('mcp-client-config.json')) as { mcpServers: Record<string, { type: string; url: string }> };
      const server = config.mcpServers.humanlike;
      expect(server.type).to.equal('http');
      expect(new URL(server.url).pathname).to.equal(MCP_PATH);
    });

    it('the Python example compiles', async function () {
      // The bytecode goes to a temporary prefix, never into the source tree.
      const { stderr } = await run('python3', ['-m', 'py_compile', path.join(DIR, 'humanlike_client.py')], {
        env: { ...process.env, PYTHONPYCACHEPREFIX: path.join(tmpdir(), 'humanlike-starter-kit-pycache') },
      });
      expect(stderr).to.equal('');
      // It signs with the maintained library, not by hand.
      expect(fileText('humanlike_client.py')).to.match(/from eth_account import Account/).and.match(/Account\.sign_typed_data/);
    });

    it('the curl examples call only endpoints that exist, with bodies their schemas accept', function () {
      const operations = apiOperations(paid.stack.config);
      const text = fileText('curl-examples.sh').replace(/\\\n\s*/g, ' ');
      const calls = text
        .split('\n')
        .filter((line) => line.startsWith('curl '))
        .map((line) => {
          const url = /"\$BASE(\/[^"?]*)(\?[^"]*)?"/.exec(line);
          const body = /-d '([^']*)'/.exec(line);
          return { method: /-X (\w+)/.exec(line)?.[1] ?? 'GET', path: url?.[1] ?? '', body: body ? (JSON.parse(body[1]) as unknown) : undefined };
        });
      expect(calls.length).to.be.greaterThan(10);
      const ajv = new Ajv({ strict: false, allErrors: true });
      for (const call of calls) {
        if (call.path === MCP_PATH) {
          expect(call.method).to.equal('POST');
          continue;
        }
        const op = operations.find((o) => o.method.toUpperCase() === call.method && o.path === call.path);
        expect(op, `${call.method} ${call.path}`).to.not.equal(undefined);
        if (op?.body) expect(ajv.validate(op.body, call.body), `${call.method} ${call.path}: ${ajv.errorsText()}`).to.equal(true);
      }
    });

    it('the Node client pays for a session with @x402/fetch against the running service', async function () {
      const server: Server = createServer(createApp(paid.stack.deps).callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const payer = paid.facilitator.payers[3];
        const before = await paid.balanceOf(payer.address);
        const { port } = server.address() as AddressInfo;
        const { stdout } = await run(process.execPath, [path.join(DIR, 'humanlike-client.mjs')], {
          env: {
            PATH: process.env.PATH,
            HUMANLIKE_URL: `http://127.0.0.1:${port}`,
            HUMANLIKE_PRIVATE_KEY: payer.privateKey,
            HUMANLIKE_NETWORK: paid.facilitator.network,
            HUMANLIKE_ASSET: paid.facilitator.asset,
          },
          timeout: 60_000,
        });
        const out = JSON.parse(stdout) as { result_id: string; eq_score: number; passed: boolean; paid: { transaction: string; network: string } };
        expect(out.result_id).to.match(/^[0-9a-f-]{36}$/);
        expect(out.eq_score).to.be.within(0, 100);
        expect(out.paid.transaction).to.match(/^0x[0-9a-f]{64}$/);
        expect(out.paid.network).to.equal(paid.facilitator.network);
        const price = BigInt(PRODUCTS.simulate.tiers.basic.price.usdcUnits);
        expect(before - (await paid.balanceOf(payer.address))).to.equal(price);
        const rows = (await paid.stack.deps.dataSource.query('SELECT count(*)::int AS n FROM ledger_sessions WHERE transaction = $1', [out.paid.transaction])) as Array<{ n: number }>;
        expect(rows[0].n).to.equal(1);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  });
});
