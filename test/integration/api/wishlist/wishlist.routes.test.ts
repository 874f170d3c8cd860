import { expect } from 'chai';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const GOOD = 'A profile for a calm airline gate agent during delays would help us.';

describe('POST /api/wishlist', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('wishlist', { worker: false });
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
  });

  function wish(ip: string, body: object) {
    return stack.http.post('/api/wishlist').set('X-Forwarded-For', ip).send(body);
  }

  async function items() {
    return (await stack.deps.dataSource.query('SELECT text, quarantined, quarantine_reason FROM wishlist_items ORDER BY created_at')) as Array<{
      text: string;
      quarantined: boolean;
      quarantine_reason: string | null;
    }>;
  }

  it('stores an item and answers 201 with the caller counters', async function () {
    const res = await wish('192.0.2.1', { text: GOOD, category: 'profile' });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({ status: 'received', items_submitted: 1, items_remaining: 4 });
    expect(await items()).to.deep.equal([{ text: GOOD, quarantined: false, quarantine_reason: null }]);
  });

  it('quarantines junk silently: same answer, kept apart, and it does not unlock the third score', async function () {
    const junk = await wish('192.0.2.2', { text: 'asdfghjkl qwrtzp' });
    const good = await wish('192.0.2.3', { text: GOOD });
    expect(junk.status).to.equal(201);
    expect(Object.keys(junk.body)).to.deep.equal(Object.keys(good.body));
    const rows = await items();
    expect(rows.find((r) => r.text === 'asdfghjkl qwrtzp')).to.include({ quarantined: true, quarantine_reason: 'keyboard_mash' });
    const caller = (await stack.deps.dataSource.query('SELECT wishlist_submitted FROM free_callers WHERE wishlist_items = 1 ORDER BY wishlist_submitted')) as Array<{
      wishlist_submitted: boolean;
    }>;
    expect(caller.map((c) => c.wishlist_submitted)).to.deep.equal([false, true]);
  });

  it('caps items per caller with a 429', async function () {
    for (let i = 0; i < 5; i++) await wish('192.0.2.4', { text: `${GOOD} Variant number ${i}.` }).expect(201);
    const res = await wish('192.0.2.4', { text: `${GOOD} One more.` });
    expect(res.status).to.equal(429);
    expect(res.body.error).to.deep.equal({ code: 'wishlist_cap_reached', message: 'Each caller may submit 5 wishlist items.', details: { limit: 5 } });
    expect(await items()).to.have.length(5);
  });

  it('enforces the cap under concurrency', async function () {
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => wish('192.0.2.5', { text: `${GOOD} Idea ${i}.` })));
    expect(responses.filter((r) => r.status === 201)).to.have.length(5);
    expect(responses.filter((r) => r.status === 429)).to.have.length(7);
  });

  it('answers 422 listing every failing field', async function () {
    const res = await wish('192.0.2.6', { text: 42, category: 'nonsense', extra: true });
    expect(res.status).to.equal(422);
    expect(res.body.error.details.fields.map((f: { path: string }) => f.path).sort()).to.deep.equal(['/category', '/extra', '/text']);
  });
});
