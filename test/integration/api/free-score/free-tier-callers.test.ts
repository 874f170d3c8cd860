import { expect } from 'chai';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const TEXT = 'ha, fair enough. I will bring the charger tomorrow, promise';

// The test stack trusts one proxy hop: X-Forwarded-For is what that proxy wrote.
describe('free-tier callers behind a proxy (one trusted hop)', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('free-callers');
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
  });

  const score = (forwardedFor: string) =>
    stack.http.post('/api/score').set('X-Forwarded-For', forwardedFor).send({ data_consent: true, proposed_text: TEXT });
  const wish = (forwardedFor: string) =>
    stack.http.post('/api/wishlist').set('X-Forwarded-For', forwardedFor).send({ text: 'A profile for a blunt but kind landlord, please.' });

  async function expectUsed(forwardedFor: string, used: number): Promise<void> {
    const res = await score(forwardedFor);
    expect(res.status, `${forwardedFor}: ${JSON.stringify(res.body)}`).to.equal(200);
    expect(res.body.free_tier).to.include({ used });
  }

  async function expectCapReached(forwardedFor: string): Promise<void> {
    const res = await score(forwardedFor);
    expect(res.status, `${forwardedFor}: ${JSON.stringify(res.body)}`).to.equal(429);
    expect(res.body.error.code).to.equal('free_cap_reached');
  }

  it('gives one IPv4 caller 3 lifetime scores however the proxy writes its address', async function () {
    await expectUsed('203.0.113.7', 1);
    await expectUsed('198.51.100.200, 203.0.113.7:50123', 2);
    await wish('203.0.113.007').expect(201);
    await expectUsed('::ffff:cb00:7107', 3);
    await expectCapReached('203.0.113.7,');
    await expectCapReached('::ffff:203.0.113.7');
    await expectCapReached('[::ffff:203.0.113.7]:443');
    // Another mapped address is another caller, not the same all-zero /64.
    await expectUsed('::ffff:cb00:7108', 1);
  });

  it('gives one IPv6 /64 3 lifetime scores, also when written with a dotted IPv4 tail', async function () {
    await expectUsed('2001:db8:1:2::1.2.3.4', 1);
    await expectUsed('[2001:db8:1:2::9]:443', 2);
    await wish('2001:DB8:1:2:ffff::1').expect(201);
    await expectUsed('2001:db8:1:2::1.2.3.5', 3);
    await expectCapReached('2001:db8:1:2:abcd::1');
    await expectUsed('::5.6.7.8', 1);
    await expectUsed('5.6.7.8', 2);
  });

  it('refuses a client address that is no IP address with 400, counting nothing', async function () {
    const res = await score('198.51.100.1, unknown');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('invalid_client_address');
    const rows = (await stack.deps.dataSource.query('SELECT count(*)::int AS n FROM free_callers')) as Array<{ n: number }>;
    expect(rows[0].n).to.equal(0);
  });
});
