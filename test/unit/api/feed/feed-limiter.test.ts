import { expect } from 'chai';
import { createFeedLimiter } from '../../../../api/feed/feed-limiter';
import { AppError } from '../../../../shared/errors';

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('createFeedLimiter', function () {
  it('refuses a caller past its limit with 429 feed_connection_limit and Retry-After, and admits it again after a release', function () {
    const limiter = createFeedLimiter({ maxPerCaller: 2, maxConnections: 10 });
    const first = limiter.acquire('203.0.113.7');
    limiter.acquire('203.0.113.7');
    const err = refusal(() => limiter.acquire('203.0.113.7'));
    expect(err).to.include({ status: 429, code: 'feed_connection_limit' });
    expect(err.details).to.deep.equal({ scope: 'caller', limit: 2, retry_after_seconds: 30 });
    expect(err.headers).to.deep.equal({ 'Retry-After': '30' });
    expect(limiter.acquire('198.51.100.1')).to.be.a('function');
    first();
    expect(limiter.acquire('203.0.113.7')).to.be.a('function');
    expect(limiter.size).to.equal(3);
  });

  it('refuses everyone past the total, and counts a release once however often it is called', function () {
    const limiter = createFeedLimiter({ maxPerCaller: 5, maxConnections: 2 });
    const a = limiter.acquire('a');
    limiter.acquire('b');
    expect(refusal(() => limiter.acquire('c')).details).to.deep.equal({ scope: 'total', limit: 2, retry_after_seconds: 30 });
    a();
    a();
    expect(limiter.size).to.equal(1);
    limiter.acquire('c');
    expect(refusal(() => limiter.acquire('d')).details).to.include({ scope: 'total' });
  });
});
