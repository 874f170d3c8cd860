import { Writable } from 'node:stream';
import { expect } from 'chai';
import { startLocalFacilitator, type LocalFacilitator } from '../../../facilitator';
import { createLogger } from '../../../shared/logger';
import { maskIdentifier } from '../../../shared/payments/mask';
import { post, signPayment } from './payments';

// A full EVM address (20 bytes) or anything longer: transaction hashes, nonces, signatures.
const FULL_HEX = /0x[0-9a-fA-F]{40}/;

describe('facilitator: log lines', function () {
  this.timeout(20_000);
  const lines: Array<Record<string, unknown>> = [];
  let f: LocalFacilitator;

  before(async function () {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    f = await startLocalFacilitator({ logger: createLogger({ log: { level: 'debug' } }, 'facilitator', stream) });
  });
  after(async function () {
    await f?.close();
  });

  it('mask payers and transactions on verify and settle, also when a settle is answered from the chain', async function () {
    const payer = f.payers[0];
    const body = await signPayment(f, payer.privateKey);
    const from = lines.length;

    expect((await post(f, '/verify', body)).body).to.include({ isValid: true });
    const settled = (await post(f, '/settle', body)).body as { success: boolean; transaction: string };
    expect(settled.success).to.equal(true);
    // The second settle finds the first one on chain ("settle answered with the earlier settlement").
    expect((await post(f, '/settle', body)).body).to.include({ success: true, transaction: settled.transaction });

    const written = lines.slice(from);
    const byMsg = (msg: string) => written.filter((l) => l.msg === msg);
    expect(byMsg('payment verified')).to.have.length(1);
    expect(byMsg('payment settled')).to.have.length(2);
    expect(byMsg('settle answered with the earlier settlement')).to.have.length(1);
    expect(byMsg('payment verified')[0]).to.include({ payer: maskIdentifier(payer.address) });
    expect(byMsg('payment settled')[0]).to.include({ payer: maskIdentifier(payer.address), transaction: maskIdentifier(settled.transaction) });
    expect(byMsg('settle answered with the earlier settlement')[0]).to.include({ transaction: maskIdentifier(settled.transaction) });

    const unmasked = written.filter((l) => FULL_HEX.test(JSON.stringify(l)));
    expect(unmasked, JSON.stringify(unmasked)).to.deep.equal([]);
  });
});
