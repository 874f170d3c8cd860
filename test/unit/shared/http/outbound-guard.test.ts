import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import OpenAI from 'openai';
import { createOutboundGuard, DEFAULT_OUTBOUND_POLICY, OutboundRefusal, type OutboundPolicy } from '../../../../shared/http/outbound-guard';
import { controlledDns } from '../../../helpers/controlled-dns';


async function refusalOf(promise: Promise<unknown>): Promise<OutboundRefusal> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(OutboundRefusal);
    return err as OutboundRefusal;
  }
  throw new Error('the call was not refused');
}

describe('outbound guard', function () {
  let server: http.Server;
  let port: number;
  let connections = 0;
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;

  before(async function () {
    server = http.createServer((req, res) => handler(req, res));
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async function () {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(function () {
    connections = 0;
    handler = (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<p>site</p>');
    };
  });

  /** The test configuration: only the loopback site's own address and port are let through. */
  function policy(dns: Record<string, string[]> = {}, overrides: Partial<OutboundPolicy> = {}): OutboundPolicy & { lookup: ReturnType<typeof controlledDns> } {
    return { ...DEFAULT_OUTBOUND_POLICY, allowAddresses: ['127.0.0.1'], allowPorts: [port], ...overrides, lookup: controlledDns(dns) };
  }

  it('fetches the allowed site by a name, checking the answer it resolved', async function () {
    const guard = createOutboundGuard(policy({ 'site.test': ['127.0.0.1'] }));
    const res = await guard.fetch(`http://site.test:${port}/page`, { contentTypes: ['text/html'] });
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal('<p>site</p>');
  });

  const privateAnswers = ['127.0.0.2', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254'];
  for (const address of privateAnswers) {
    it(`refuses a name that resolves to ${address}, before connecting`, async function () {
      const settings = policy({ 'evil.test': [address] });
      const guard = createOutboundGuard(settings);
      const refusal = await refusalOf(guard.fetch(`http://evil.test:${port}/`));
      expect(refusal.reason).to.equal('address');
      expect(settings.lookup.asked).to.deep.equal(['evil.test']);
      expect(connections).to.equal(0);
    });
  }

  // Each spelling is what a caller could type; the URL parser normalises the IPv4 ones, and the
  // agent checks the literal it connects to without any lookup.
  const literals = [
    'http://2130706434/', // 127.0.0.2 as one decimal number
    'http://0x7f.0.0.2/', // hex
    'http://0177.0.0.2/', // octal
    'http://127.2/', // short form of 127.0.0.2
    'http://[::ffff:7f00:2]/', // IPv4-mapped, hex
    'http://[::ffff:127.0.0.2]/',
    'http://[0:0:0:0:0:ffff:a9fe:a9fe]/', // 169.254.169.254 mapped
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://0/',
    'http://[::]/',
    'http://[fc00::1]/',
    'http://10.1.2.3/',
    'https://192.168.0.1/',
  ];
  for (const literal of literals) {
    it(`refuses the literal address ${literal}`, async function () {
      const settings = policy();
      const guard = createOutboundGuard(settings);
      const refusal = await refusalOf(guard.fetch(literal));
      expect(refusal.reason).to.equal('address');
      expect(settings.lookup.asked).to.deep.equal([]);
    });
  }

  it('refuses other schemes, non-standard ports and credentials before resolving anything', async function () {
    const settings = policy({ 'site.test': ['127.0.0.1'] });
    const guard = createOutboundGuard(settings);
    expect((await refusalOf(guard.fetch('ftp://site.test/'))).reason).to.equal('scheme');
    expect((await refusalOf(guard.fetch('file:///etc/passwd'))).reason).to.equal('scheme');
    expect((await refusalOf(guard.fetch('http://site.test:8080/'))).reason).to.equal('port');
    expect((await refusalOf(guard.fetch(`http://user:pw@site.test:${port}/`))).reason).to.equal('credentials');
    expect((await refusalOf(guard.fetch('not a url'))).reason).to.equal('invalid_url');
    expect(settings.lookup.asked).to.deep.equal([]);
  });

  it('connects to the address it checked, even when the name would answer differently a second time', async function () {
    // A rebinding name: first a permitted address, then a forbidden one.
    const settings = policy({ 'rebind.test': ['127.0.0.1', '10.0.0.1'] });
    const guard = createOutboundGuard(settings);
    const res = await guard.fetch(`http://rebind.test:${port}/`);
    expect(res.status).to.equal(200);
    expect(settings.lookup.asked).to.deep.equal(['rebind.test']);
    expect(connections).to.equal(1);
  });

  it('re-checks every redirect hop and stops after three', async function () {
    let hops = 0;
    handler = (req, res) => {
      if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      }
      hops += 1;
      res.writeHead(302, { location: `/hop-${hops}` }).end();
    };
    const guard = createOutboundGuard(policy({ 'site.test': ['127.0.0.1'] }));
    expect((await refusalOf(guard.fetch(`http://site.test:${port}/to-metadata`))).reason).to.equal('address');
    expect((await refusalOf(guard.fetch(`http://site.test:${port}/start`))).reason).to.equal('redirects');
    expect(hops).to.equal(4);
  });

  it('follows up to three redirects to an allowed page', async function () {
    handler = (req, res) => {
      const n = Number(req.url!.slice(1));
      if (n < 3) res.writeHead(301, { location: `/${n + 1}` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(`arrived at ${n}`);
    };
    const guard = createOutboundGuard(policy({ 'site.test': ['127.0.0.1'] }));
    expect(await (await guard.fetch(`http://site.test:${port}/0`)).text()).to.equal('arrived at 3');
  });

  it('refuses a body over the size bound, declared or streamed', async function () {
    const guard = createOutboundGuard(policy({ 'site.test': ['127.0.0.1'] }, { maxBytes: 1024 }));
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('x'.repeat(2048));
    expect((await refusalOf(guard.fetch(`http://site.test:${port}/`))).reason).to.equal('too_large');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('x'.repeat(800));
      res.end('y'.repeat(800));
    };
    expect((await refusalOf(guard.fetch(`http://site.test:${port}/`))).reason).to.equal('too_large');
  });

  it('refuses an answer of another media type when types are named', async function () {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('bin');
    const guard = createOutboundGuard(policy({ 'site.test': ['127.0.0.1'] }));
    expect((await refusalOf(guard.fetch(`http://site.test:${port}/`, { contentTypes: ['text/html'] }))).reason).to.equal('content_type');
  });

  it('gives up at the deadline on a site that never answers', async function () {
    const held: http.ServerResponse[] = [];
    handler = (_req, res) => {
      held.push(res);
    };
    const guard = createOutboundGuard(policy({ 'site.test': ['127.0.0.1'] }, { timeoutMs: 300 }));
    expect((await refusalOf(guard.fetch(`http://site.test:${port}/`))).reason).to.equal('timeout');
    for (const res of held) res.destroy();
  });

  it('serves as the fetch of the official openai client', async function () {
    handler = (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const model = (JSON.parse(body) as { model: string }).model;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `hello from ${req.url}` } }] }),
        );
      });
    };
    const guard = createOutboundGuard(policy({ 'agent.test': ['127.0.0.1'] }));
    const client = new OpenAI({ baseURL: `http://agent.test:${port}/v1`, apiKey: 'k', maxRetries: 0, fetch: guard.fetch });
    const completion = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]!.message.content).to.equal('hello from /v1/chat/completions');

    const blocked = new OpenAI({ baseURL: 'http://169.254.169.254/v1', apiKey: 'k', maxRetries: 0, fetch: guard.fetch });
    const err = await blocked.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(OpenAI.APIConnectionError);
  });
});
