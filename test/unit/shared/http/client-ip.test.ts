import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { clientIp } from '../../../../shared/http/client-ip';
import type { RequestState } from '../../../../shared/http/request-state';

function appTrusting(hops: number) {
  const app = new Koa<RequestState>();
  // As api/app.ts sets them: Koa's own view of the header must not win over clientIp.
  app.proxy = hops > 0;
  app.maxIpsCount = hops;
  app.use(clientIp(hops));
  app.use(async (ctx) => {
    ctx.body = { ip: ctx.ip };
  });
  return supertest(app.callback());
}

async function ipFor(hops: number, forwardedFor?: string): Promise<string> {
  const req = appTrusting(hops).get('/');
  const res = await (forwardedFor === undefined ? req : req.set('X-Forwarded-For', forwardedFor)).expect(200);
  return res.body.ip as string;
}

describe('clientIp', function () {
  it('takes the entry written by the one trusted proxy, canonical', async function () {
    expect(await ipFor(1, '198.51.100.1, 203.0.113.7')).to.equal('203.0.113.7');
    expect(await ipFor(1, '198.51.100.1, 203.0.113.7:1234')).to.equal('203.0.113.7');
    expect(await ipFor(1, '::ffff:cb00:7107')).to.equal('203.0.113.7');
    expect(await ipFor(1, '[2001:db8:1:2::1.2.3.4]:443')).to.equal('2001:db8:1:2::102:304');
  });

  it('skips empty entries: a trailing comma does not make the proxy the caller', async function () {
    expect(await ipFor(1, '203.0.113.7,')).to.equal('203.0.113.7');
    expect(await ipFor(1, '203.0.113.7, ')).to.equal('203.0.113.7');
    expect(await ipFor(2, '198.51.100.1, 203.0.113.7,, 10.0.0.1')).to.equal('203.0.113.7');
  });

  it('counts TRUSTED_PROXY_HOPS from the right, as before', async function () {
    expect(await ipFor(2, '198.51.100.1, 203.0.113.7, 10.0.0.1')).to.equal('203.0.113.7');
    expect(await ipFor(3, '198.51.100.1, 203.0.113.7, 10.0.0.1')).to.equal('198.51.100.1');
    // Fewer entries than hops: the leftmost, as Koa's maxIpsCount gave.
    expect(await ipFor(3, '203.0.113.7')).to.equal('203.0.113.7');
  });

  it('uses the socket address, canonical, with no trusted hop or no header', async function () {
    expect(await ipFor(0, '203.0.113.7')).to.equal('127.0.0.1');
    expect(await ipFor(1)).to.equal('127.0.0.1');
  });

  it('keeps an entry that is no IP address as written, for the caller key to refuse', async function () {
    expect(await ipFor(1, '198.51.100.1, unknown')).to.equal('unknown');
  });
});
