import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { obliterateQueues } from '../../helpers/redis';
import { startNpmStart, type RunningStack } from './npm-start';

/**
 * Two checkouts on one machine: two `npm start` with their own data folders on the one
 * Redis at 127.0.0.1:6379, no QUEUE_PREFIX set. Each must settle its own payments.
 */
describe('npm start twice on one Redis (supervisor/main from dist)', function () {
  // Two first starts at once (two PGlite initdbs and two chains) on a small machine.
  this.timeout(180_000);
  const dataDirs: string[] = [];
  const stacks: RunningStack[] = [];

  before(function () {
    for (const name of ['a', 'b']) dataDirs.push(mkdtempSync(path.join(tmpdir(), `humanlike-two-${name}-`)));
  });
  after(async function () {
    for (const stack of stacks) stack.killAll();
    for (const stack of stacks) {
      // Only the prefixes these stacks derived: never a bare `humanlike` someone else may use.
      if (stack.queuePrefix?.startsWith('humanlike-')) await obliterateQueues(stack.queuePrefix);
    }
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps their queues apart: every paid call on either stack answers 200 with its receipt', async function () {
    stacks.push(...(await Promise.all(dataDirs.map((dir) => startNpmStart({ DATA_DIR: dir, PORT: '0' }, 150_000)))));
    const [a, b] = stacks;
    expect(a.url).not.to.equal(b.url);
    // Both on the one shared Redis, as two checkouts are (not each on a private one).
    for (const stack of stacks) expect(stack.readyLine).not.to.contain('private Redis');

    // Several calls on each at once: on one shared queue each settlement lands on either worker.
    const calls = (stack: RunningStack) => Promise.all([1, 2, 3].map((n) => stack.pay(`Oh no, I am so sorry (${n}). Want to talk tonight?`)));
    const [onA, onB] = await Promise.all([calls(a), calls(b)]);
    for (const outcome of [...onA, ...onB]) {
      expect(outcome.status, JSON.stringify(outcome.body)).to.equal(200);
      expect(outcome.receipt).to.include({ success: true, network: 'eip155:8453' });
    }
    expect(new Set([...onA, ...onB].map((o) => o.receipt?.transaction)).size).to.equal(6);

    // Each ready line names its own prefix, derived from its data folder.
    expect(a.queuePrefix, a.readyLine).to.match(/^humanlike-[0-9a-f]{8}$/);
    expect(b.queuePrefix, b.readyLine).to.match(/^humanlike-[0-9a-f]{8}$/);
    expect(a.queuePrefix).not.to.equal(b.queuePrefix);

    for (const stack of stacks) stack.child.kill('SIGTERM');
    const ends = await Promise.all(stacks.map((s) => s.exited));
    expect(ends).to.deep.equal([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });
});
