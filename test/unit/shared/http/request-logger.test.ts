import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { requestLogger } from '../../../../shared/http/request-logger';
import type { RequestState } from '../../../../shared/http/request-state';
import { createLogger } from '../../../../shared/logger';
import { until } from '../../../helpers/until';

type Line = Record<string, unknown>;

function loggedApp(handler: Koa.Middleware<RequestState>) {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  const app = new Koa<RequestState>();
  app.silent = true;
  app.use(requestLogger(createLogger({ log: { level: 'info' } }, 'test', stream)));
  app.use(handler);
  return { app, lines };
}

describe('requestLogger', function () {
  it('writes one line per request with its id, method, path, final status and duration', async function () {
    const { app, lines } = loggedApp(async (ctx) => {
      ctx.throw(418, 'no coffee');
    });
    await supertest(app.callback()).post('/brew?beans=secret').set('X-Request-Id', 'req-1').send({ text: 'private words' }).expect(418);
    await until(() => lines.some((l) => l.msg === 'request finished'), 2_000, 'the request line');
    const line = lines.find((l) => l.msg === 'request finished');
    expect(line).to.include({ service: 'test', reqId: 'req-1', method: 'POST', path: '/brew', status: 418 });
    expect(line?.ms).to.be.a('number');
    expect(JSON.stringify(lines)).not.to.match(/secret|private words/);
  });

  it('keeps the redaction on the lines a handler writes with its request logger', async function () {
    const { app, lines } = loggedApp(async (ctx) => {
      ctx.state.log.info({ payment: { signature: '0xsig', amount: '10' } }, 'paid');
      ctx.body = { ok: true };
    });
    const res = await supertest(app.callback()).get('/').expect(200);
    await until(() => lines.some((l) => l.msg === 'request finished'), 2_000, 'the request line');
    const paid = lines.find((l) => l.msg === 'paid');
    expect(paid?.reqId).to.equal(res.headers['x-request-id']);
    expect(paid?.payment).to.deep.equal({ signature: '[redacted]', amount: '10' });
  });

  it('still writes the line when the caller hangs up before the response', async function () {
    let release: () => void = () => undefined;
    const { app, lines } = loggedApp(async (ctx) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      ctx.body = { late: true };
    });
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const req = httpRequest({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', path: '/slow' });
      req.on('error', () => undefined);
      req.end();
      await new Promise((r) => setTimeout(r, 50));
      req.destroy();
      await until(() => lines.some((l) => l.msg === 'request finished'), 2_000, 'the request line');
      expect(lines.find((l) => l.msg === 'request finished')).to.include({ path: '/slow' });
    } finally {
      release();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
