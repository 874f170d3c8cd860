import { expect } from 'chai';
import { decodeJobError, encodeJobError } from '../../../jobs';
import { AppError } from '../../../shared/errors';

describe('job-error', function () {
  it('round-trips a client error with its details', function () {
    const err = decodeJobError(encodeJobError({ status: 422, code: 'empty_text', message: 'text is empty', details: { field: 'text' } }));
    expect(err).to.be.instanceOf(AppError);
    expect(err).to.include({ status: 422, code: 'empty_text', message: 'text is empty', expose: true });
    expect(err.details).to.deep.equal({ field: 'text' });
  });

  it('keeps server faults unexposed', function () {
    const err = decodeJobError(encodeJobError({ status: 503, code: 'pool_busy', message: 'busy', details: { secret: 1 } }));
    expect(err).to.include({ status: 503, expose: false });
    expect(err.details).to.equal(undefined);
  });

  it('turns anything undecodable into a 500 job_failed', function () {
    for (const reason of [undefined, 'connection lost', 'hl-job-error:{not json', 'hl-job-error:{"status":200,"code":"x","message":"y"}']) {
      expect(decodeJobError(reason)).to.include({ status: 500, code: 'job_failed', expose: false });
    }
  });
});
