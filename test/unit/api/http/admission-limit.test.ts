import { expect } from 'chai';
import { createAdmissionLimit, type AdmissionLimitOptions, type AdmissionSample } from '../../../../api/http/admission-limit';

// A gate on a clock the test moves, and admitted calls the test finishes one by one.
function gateOnClock(options: Omit<AdmissionLimitOptions, 'now'>) {
  let clock = 0;
  const gate = createAdmissionLimit({ ...options, now: () => clock });
  const started: string[] = [];
  const running = new Map<string, { finish: () => void; fail: (err: Error) => void }>();
  const call = (name: string, sample?: AdmissionSample<string>) =>
    gate.run(
      () =>
        new Promise<string>((resolve, reject) => {
          started.push(name);
          running.set(name, { finish: () => resolve(name), fail: reject });
        }),
      sample,
    );
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Finishes a running call, the clock first set to `atClock` when given. */
  const finish = async (name: string, atClock?: number) => {
    if (atClock !== undefined) clock = atClock;
    const r = running.get(name);
    if (!r) throw new Error(`${name} is not running`);
    running.delete(name);
    r.finish();
    await settle();
  };
  return {
    gate,
    started,
    running,
    call,
    finish,
    settle,
    setClock: (t: number) => {
      clock = t;
    },
  };
}

describe('admission limit', () => {
  it('admits calls in the order they came, no more at once than the limit', async () => {
    const g = gateOnClock({ initial: 2, min: 2, max: 2 });
    const done = ['a', 'b', 'c', 'd', 'e'].map((name) => g.call(name));
    await g.settle();
    expect(g.started).to.deep.equal(['a', 'b']);
    expect([g.gate.active, g.gate.waiting]).to.deep.equal([2, 3]);
    await g.finish('b', 10);
    expect(g.started).to.deep.equal(['a', 'b', 'c']);
    await g.finish('a', 10);
    await g.finish('c', 10);
    expect(g.started).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    await g.finish('d', 10);
    await g.finish('e', 10);
    expect(await Promise.all(done)).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect([g.gate.active, g.gate.waiting]).to.deep.equal([0, 0]);
  });

  it('keeps the order of a long queue while it drops the admitted ones from its front', async () => {
    const g = gateOnClock({ initial: 1, min: 1, max: 1 });
    const names = Array.from({ length: 3_000 }, (_, i) => `q${i}`);
    const done = names.map((name) => g.call(name));
    await g.settle();
    for (const name of names) await g.finish(name, 10);
    expect(await Promise.all(done)).to.deep.equal(names);
    expect(g.started).to.deep.equal(names);
    expect([g.gate.active, g.gate.waiting]).to.deep.equal([0, 0]);
  });

  it('passes a failure on and gives its place to the next call', async () => {
    const g = gateOnClock({ initial: 1, min: 1, max: 1 });
    const first = g.call('a').then(
      () => undefined,
      (err: unknown) => err,
    );
    const second = g.call('b');
    await g.settle();
    g.running.get('a')!.fail(new Error('facilitator down'));
    const failure = await first;
    await g.settle();
    expect((failure as Error).message).to.equal('facilitator down');
    expect(g.started).to.deep.equal(['a', 'b']);
    await g.finish('b', 5);
    expect(await second).to.equal('b');
  });

  it('narrows when what it admits queues downstream (latency far above its least)', async () => {
    const g = gateOnClock({ initial: 16, min: 2, max: 64 });
    // One call alone: 10 ms, the no-load reference.
    const alone = g.call('alone');
    await g.settle();
    await g.finish('alone', 10);
    await alone;
    // A burst of 40 that shares the cores: each takes 100 ms.
    const burst = Array.from({ length: 40 }, (_, i) => g.call(`b${i}`));
    await g.settle();
    expect(g.gate.active).to.equal(16);
    for (let i = 0; i < 40; i++) await g.finish(`b${i}`, 10 + 100 * (i + 1));
    await Promise.all(burst);
    // It stops narrowing once the estimated queue, limit x (1 - 10/100), is within the band.
    expect(g.gate.limit).to.be.within(2, 7);
  });

  it('widens while it is full and what it admits keeps its least latency', async () => {
    const g = gateOnClock({ initial: 4, min: 1, max: 64 });
    const calls = Array.from({ length: 200 }, (_, i) => g.call(`c${i}`));
    await g.settle();
    // Each round, every running call finishes 10 ms after it was admitted, and the gate stays full.
    let t = 0;
    for (let round = 0; round < 5; round++) {
      t += 10;
      for (const name of [...g.running.keys()]) await g.finish(name, t);
    }
    expect(g.gate.limit).to.be.greaterThan(8);
    while (g.running.size > 0) {
      t += 10;
      for (const name of [...g.running.keys()]) await g.finish(name, t);
    }
    await Promise.all(calls);
  });

  it('does not widen while calls come one at a time', async () => {
    const g = gateOnClock({ initial: 4, min: 1, max: 64 });
    for (let i = 0; i < 20; i++) {
      const c = g.call(`c${i}`);
      await g.settle();
      await g.finish(`c${i}`, 10 * (i + 1));
      await c;
      g.setClock(10 * (i + 1) + 5);
    }
    expect(g.gate.limit).to.equal(4);
  });

  it('takes a lasting change of latency as the new reference after two windows', async () => {
    const g = gateOnClock({ initial: 16, min: 2, max: 64, windowMs: 1_000 });
    const alone = g.call('alone');
    await g.settle();
    await g.finish('alone', 10);
    await alone;
    // From now on every call takes 200 ms, whatever the load (a slower facilitator), and the gate is kept full.
    let t = 10;
    let next = 0;
    const all: Promise<string>[] = [];
    const topUp = async () => {
      while (g.gate.waiting < 4) all.push(g.call(`s${next++}`));
      await g.settle();
    };
    await topUp();
    const limits: number[] = [];
    while (t < 5_000) {
      const running = [...g.running.keys()];
      t += 200;
      for (const name of running) await g.finish(name, t);
      await topUp();
      limits.push(g.gate.limit);
    }
    const lowest = Math.min(...limits);
    expect(lowest).to.be.lessThan(16);
    expect(g.gate.limit).to.be.greaterThan(lowest);
    // Drain.
    while (g.running.size > 0) for (const name of [...g.running.keys()]) await g.finish(name, (t += 1));
    await Promise.all(all);
  });

  // Keeps the gate full of `kind` calls for five rounds, each call taking `latency` ms.
  async function fullRounds(g: ReturnType<typeof gateOnClock>, kind: string, latency: number, start: number) {
    const calls = Array.from({ length: 60 }, (_, i) => g.call(`${kind}${i}`, { kind }));
    await g.settle();
    let t = start;
    while (g.running.size > 0) {
      t += latency;
      for (const name of [...g.running.keys()]) await g.finish(name, t);
    }
    await Promise.all(calls);
  }

  it('compares each kind of work with its own least latency: a slow product beside a fast one is not queueing', async () => {
    const g = gateOnClock({ initial: 16, min: 2, max: 64 });
    const fast = g.call('fast', { kind: 'script-check:' });
    await g.settle();
    await g.finish('fast', 1);
    await fast;
    await fullRounds(g, 'export:', 100, 1);
    expect(g.gate.limit).to.be.at.least(16);
  });

  it('takes no sample from an outcome that does not count or from a failure, so quick refusals never become the reference', async () => {
    const g = gateOnClock({ initial: 16, min: 2, max: 64 });
    const refused = g.call('refused', { kind: 'simulate:basic', counts: (r) => r !== 'refused' });
    const failed = g.call('failed', { kind: 'simulate:basic' }).catch(() => 'failed');
    await g.settle();
    await g.finish('refused', 1);
    g.running.get('failed')!.fail(new Error('bad signature'));
    expect([await refused, await failed]).to.deep.equal(['refused', 'failed']);
    await fullRounds(g, 'simulate:basic', 100, 1);
    expect(g.gate.limit).to.be.at.least(16);
  });

  it('refuses bounds that cannot hold', () => {
    expect(() => createAdmissionLimit({ min: 0, max: 4 })).to.throw(RangeError);
    expect(() => createAdmissionLimit({ min: 8, max: 4 })).to.throw(RangeError);
  });
});
