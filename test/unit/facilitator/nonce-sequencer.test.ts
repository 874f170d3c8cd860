import { expect } from 'chai';
import { createNonceSequencer } from '../../../facilitator/nonce-sequencer';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('facilitator/nonce-sequencer createNonceSequencer', function () {
  it('gives concurrent sends consecutive nonces, one broadcast at a time, reading the chain once', async function () {
    let reads = 0;
    let running = 0;
    let maxRunning = 0;
    const sequencer = createNonceSequencer(async () => {
      reads++;
      return 7;
    });
    const nonces = await Promise.all(
      Array.from({ length: 5 }, () =>
        sequencer.send(async (nonce) => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await tick();
          running--;
          return nonce;
        }),
      ),
    );
    expect(nonces).to.deep.equal([7, 8, 9, 10, 11]);
    expect(maxRunning).to.equal(1);
    expect(reads).to.equal(1);
  });

  it('re-reads the pending nonce after a failed send and keeps serving later sends', async function () {
    const chainNonces = [3, 3];
    const sequencer = createNonceSequencer(async () => chainNonces.shift() ?? 99);
    const failed = sequencer.send(async () => {
      throw new Error('estimateGas reverted');
    });
    const next = sequencer.send(async (nonce) => nonce);
    await failed.then(
      () => expect.fail('the first send should fail'),
      (err: Error) => expect(err.message).to.equal('estimateGas reverted'),
    );
    expect(await next).to.equal(3);
    expect(await sequencer.send(async (nonce) => nonce)).to.equal(4);
  });
});
