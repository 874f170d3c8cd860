import { expect } from 'chai';
import { answerCode, describeFetchFailure, isFinalAnswer, retryAfterMs } from '../../../../cli/pay/paid-answer';
import { defaultStateDir } from '../../../../cli/pay/state-dir';

describe('paid answers (what the client may retry with the same authorization)', () => {
  it('reads the code of an x402 challenge and of a service error', () => {
    expect(answerCode({ x402Version: 2, error: 'settlement_failed' })).to.equal('settlement_failed');
    expect(answerCode({ error: { code: 'settlement_pending', message: 'later' } })).to.equal('settlement_pending');
    expect(answerCode('upstream exploded')).to.equal(undefined);
    expect(answerCode(null)).to.equal(undefined);
  });

  it('keeps the authorization after no final answer: any 5xx, 408, 429, and 402 settlement_failed', () => {
    expect(isFinalAnswer(402, { error: 'settlement_failed' })).to.equal(false);
    expect(isFinalAnswer(503, { error: { code: 'facilitator_unavailable' } })).to.equal(false);
    expect(isFinalAnswer(504, { error: { code: 'settlement_pending' } })).to.equal(false);
    expect(isFinalAnswer(500, 'oops')).to.equal(false);
    expect(isFinalAnswer(502, null)).to.equal(false);
    expect(isFinalAnswer(408, null)).to.equal(false);
    expect(isFinalAnswer(429, null)).to.equal(false);
  });

  it('forgets it after a delivery or a final refusal', () => {
    expect(isFinalAnswer(200, { score: {} })).to.equal(true);
    expect(isFinalAnswer(402, { error: 'invalid_exact_evm_insufficient_balance' })).to.equal(true);
    expect(isFinalAnswer(409, { error: { code: 'payment_already_used' } })).to.equal(true);
    expect(isFinalAnswer(422, { error: { code: 'validation_failed' } })).to.equal(true);
    expect(isFinalAnswer(400, { error: { code: 'invalid_payment_header' } })).to.equal(true);
  });

  it('reads Retry-After as seconds or a date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('5', now)).to.equal(5000);
    expect(retryAfterMs(' 0 ', now)).to.equal(0);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now)).to.equal(7000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:07 GMT', now)).to.equal(0);
    expect(retryAfterMs('soon', now)).to.equal(undefined);
    expect(retryAfterMs(null, now)).to.equal(undefined);
  });

  it('says why fetch failed, not just "fetch failed"', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' });
    expect(describeFetchFailure(new TypeError('fetch failed', { cause: refused }))).to.equal('connect ECONNREFUSED 127.0.0.1:3000');
    const closed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(describeFetchFailure(new TypeError('fetch failed', { cause: closed }))).to.equal('other side closed (UND_ERR_SOCKET)');
    const both = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:3000'), { code: 'ECONNREFUSED' }), refused], '');
    expect(describeFetchFailure(new TypeError('fetch failed', { cause: both }))).to.equal('connect ECONNREFUSED ::1:3000; connect ECONNREFUSED 127.0.0.1:3000');
  });

  it('keeps state in $HUMANLIKE_STATE_DIR, else $XDG_STATE_HOME/humanlike, else ~/.local/state/humanlike', () => {
    expect(defaultStateDir({ HUMANLIKE_STATE_DIR: '/srv/state', XDG_STATE_HOME: '/x' }, '/home/a')).to.equal('/srv/state');
    expect(defaultStateDir({ XDG_STATE_HOME: '/x' }, '/home/a')).to.equal('/x/humanlike');
    expect(defaultStateDir({ XDG_STATE_HOME: 'relative' }, '/home/a')).to.equal('/home/a/.local/state/humanlike');
    expect(defaultStateDir({}, '/home/a')).to.equal('/home/a/.local/state/humanlike');
  });
});
