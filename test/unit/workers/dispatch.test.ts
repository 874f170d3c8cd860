import { expect } from 'chai';
import type { Job, Processor } from 'bullmq';
import { JOB_PRODUCTS, QUEUE_JOBS, SCORE_TEXT_JOB } from '../../../jobs';
import { createDispatcher } from '../../../workers/dispatch';

const handler: Processor = async (job: Job) => `handled ${job.name}`;
const handlersFor = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, handler]));

describe('createDispatcher', function () {
  it('refuses to start a queue when a job the web enqueues on it has no processor', function () {
    const declared = QUEUE_JOBS.scoring ?? [];
    expect(declared).to.include(SCORE_TEXT_JOB);
    const withoutScore = handlersFor(declared.filter((n) => n !== SCORE_TEXT_JOB));
    expect(() => createDispatcher('scoring', withoutScore)).to.throw(/queue "scoring" has no processor for "score-text"/);
  });

  it('starts every queue whose declared jobs all have one, and routes a job to its handler', async function () {
    expect(Object.keys(QUEUE_JOBS).sort()).to.deep.equal(['exports', 'scoring', 'settlement', 'stress']);
    for (const [queue, names] of Object.entries(QUEUE_JOBS)) {
      expect(names!.length, queue).to.be.greaterThan(0);
      const dispatch = createDispatcher(queue as keyof typeof QUEUE_JOBS, handlersFor(names!));
      expect(await dispatch({ name: names![0] } as Job)).to.equal(`handled ${names![0]}`);
    }
  });

  it('names, for every job the web enqueues, the products it serves', function () {
    const declared = Object.values(QUEUE_JOBS).flat() as string[];
    expect(declared.length).to.be.at.least(8);
    for (const name of declared) expect(JOB_PRODUCTS[name], name).to.be.an('array').that.is.not.empty;
    expect(Object.keys(JOB_PRODUCTS).sort()).to.deep.equal([...declared].sort());
    expect(JOB_PRODUCTS[SCORE_TEXT_JOB]).to.include('scored session (simulate)');
  });

  it('refuses a queue with no handlers at all', function () {
    expect(() => createDispatcher('maintenance', {})).to.throw(/has no job handlers/);
  });
});
