import { expect } from 'chai';
import { awaitResult, enqueueWithDeadline, jobIdFor, REWRITE_JOB, rewriteJobId, rewriteThroughQueue, type RewriteJobResult } from '../../../jobs';
import { AppError } from '../../../shared/errors';
import { startTestStack, type TestStack } from '../../helpers/stack';

describe('rewrite jobs across the scoring queue', function () {
  let stack: TestStack;
  const deadlines = { enqueueTimeoutMs: 2000, waitTimeoutMs: 20_000 };

  before(async function () {
    stack = await startTestStack('rewrite-jobs');
  });
  after(async function () {
    await stack?.close();
  });

  it('rewrites on the worker thread pool and returns the rewrite', async function () {
    const text = 'Certainly! You should restart the server. I hope this helps! Let me know if you have any other questions.';
    const out = await rewriteThroughQueue(
      stack.deps.scoringQueue,
      stack.deps.scoringEvents,
      { input: { text, profile: 'terse-senior-engineer' } },
      { kind: 'idempotency-key', key: 'rewrite-1' },
      deadlines,
    );
    expect(out.rewrite.profile).to.equal('terse-senior-engineer');
    expect(out.rewrite.changed).to.equal(true);
    expect(out.rewrite.after.eq_score).to.be.greaterThan(out.rewrite.before.eq_score);
    expect(out.threadMs).to.be.a('number');
  });

  it('never shares a job id with a scoring job of the same request identity', function () {
    const identity = { kind: 'payment', authorization: '0xabc' } as const;
    expect(rewriteJobId(identity)).to.equal(`rewrite-${jobIdFor(identity)}`);
  });

  it('decodes the engine refusal into a 422 AppError, and a malformed payload into a 500', async function () {
    const refused = await rewriteThroughQueue(
      stack.deps.scoringQueue,
      stack.deps.scoringEvents,
      { input: { text: 'hi there', profile: 'pirate-captain' } },
      { kind: 'idempotency-key', key: 'rewrite-2' },
      deadlines,
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).to.be.instanceOf(AppError);
    expect(refused).to.include({ status: 422, code: 'unknown_profile' });

    const job = await enqueueWithDeadline<unknown, RewriteJobResult>(stack.deps.scoringQueue, REWRITE_JOB, { input: { text: 'hi' } }, 'rewrite-bad-payload', 2000);
    const broken = await awaitResult(job, stack.deps.scoringEvents, 10_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(broken).to.be.instanceOf(AppError);
    expect(broken).to.include({ status: 500, code: 'invalid_job_payload' });
  });
});
