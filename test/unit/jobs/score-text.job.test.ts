import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { jobIdFor } from '../../../jobs';

describe('jobIdFor', function () {
  const hash = 'ab'.repeat(32);

  it('derives a stable id from the request identity', function () {
    expect(jobIdFor({ kind: 'free-score', round: hash })).to.equal(jobIdFor({ kind: 'free-score', round: hash }));
    expect(jobIdFor({ kind: 'free-score', round: hash })).not.to.equal(jobIdFor({ kind: 'free-score', round: 'cd'.repeat(32) }));
    expect(jobIdFor({ kind: 'payment', authorization: 'auth:1' })).to.equal(jobIdFor({ kind: 'payment', authorization: 'auth:1' }));
  });

  it('keeps the ids of earlier releases: the first 40 hex digits of the identity\'s SHA-256', function () {
    // A paid call retried across a deploy must find the job its first try made.
    const sha = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 40);
    expect(jobIdFor({ kind: 'payment', authorization: 'auth:1' })).to.equal(`pay-${sha('auth:1')}`);
    expect(jobIdFor({ kind: 'idempotency-key', key: 'clé' })).to.equal(`idem-${sha('clé')}`);
    expect(jobIdFor({ kind: 'free-score', round: hash })).to.equal(`free-${sha(hash)}`);
  });

  it("never contains ':' and is never all digits", function () {
    for (const id of [
      jobIdFor({ kind: 'free-score', round: '12345' }),
      jobIdFor({ kind: 'payment', authorization: '0x12:34:56' }),
      jobIdFor({ kind: 'idempotency-key', key: '12345' }),
      jobIdFor({ kind: 'drill-attempt', attempt: '12345' }),
    ]) {
      expect(id).not.to.contain(':');
      expect(id).not.to.match(/^\d+$/);
    }
  });

  it('hashes opaque keys, so a caller cannot pick another request’s id', function () {
    expect(jobIdFor({ kind: 'idempotency-key', key: 'k' })).to.match(/^idem-[0-9a-f]{40}$/);
    expect(jobIdFor({ kind: 'idempotency-key', key: 'k' })).not.to.equal(jobIdFor({ kind: 'payment', authorization: 'k' }));
    expect(jobIdFor({ kind: 'drill-attempt', attempt: 'k' })).to.match(/^drill-[0-9a-f]{40}$/);
  });
});
