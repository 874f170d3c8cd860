import { expect } from 'chai';
import { TtlCache } from '../../../../api/records/ttl-cache';
import { escapeHtml } from '../../../../api/http/html-page';

describe('TtlCache', function () {
  it('serves a value until its TTL has passed, then loads it again', async function () {
    let now = 1_000;
    let loads = 0;
    const cache = new TtlCache<number>(10_000, 8, () => now);
    const load = async () => ++loads;
    expect(await cache.get('k', load)).to.equal(1);
    now += 9_999;
    expect(await cache.get('k', load)).to.equal(1);
    now += 1;
    expect(await cache.get('k', load)).to.equal(2);
  });

  it('shares one load between concurrent misses, and does not keep a failed one', async function () {
    let loads = 0;
    const cache = new TtlCache<number>(10_000, 8, () => 0);
    const [a, b] = await Promise.all([cache.get('k', async () => ++loads), cache.get('k', async () => ++loads)]);
    expect([a, b, loads]).to.deep.equal([1, 1, 1]);
    const failed = await cache.get('x', async () => Promise.reject(new Error('db down'))).then(
      () => 'resolved',
      (err: Error) => err.message,
    );
    expect(failed).to.equal('db down');
    expect(await cache.get('x', async () => 7)).to.equal(7);
  });

  it('keeps at most maxEntries keys, dropping the oldest', async function () {
    let loads = 0;
    const cache = new TtlCache<number>(10_000, 2, () => 0);
    const load = async () => ++loads;
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);
    expect(await cache.get('b', load)).to.equal(2);
    expect(await cache.get('a', load)).to.equal(4);
  });
});

describe('escapeHtml', function () {
  it('escapes the five characters that could open a tag or close an attribute', function () {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).to.equal('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
