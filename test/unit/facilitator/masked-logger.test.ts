import { Writable } from 'node:stream';
import { expect } from 'chai';
import { maskedLogger } from '../../../facilitator/masked-logger';
import { createLogger } from '../../../shared/logger';

const ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const HASH = `0x${'ab12'.repeat(16)}`;

describe('facilitator/masked-logger', function () {
  it('masks payer, transaction and every address or hash inside a logged error', function () {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const log = maskedLogger(createLogger({ log: { level: 'info' } }, 'facilitator', stream));
    const err = Object.assign(new Error(`execution reverted. Request Arguments: from: ${ADDRESS} data: ${HASH}`), { details: { to: ADDRESS } });
    log.child({ reqId: 'r1' }).warn({ payer: ADDRESS, transaction: HASH, err, network: 'eip155:8453' }, 'settle failed');

    expect(lines).to.have.length(1);
    expect(lines[0]).not.to.match(/0x[0-9a-fA-F]{40}/);
    const line = JSON.parse(lines[0]) as { payer: string; transaction: string; network: string; err: { message: string; details: { to: string } } };
    expect(line).to.include({ payer: '0x3C44…93BC', transaction: '0xab12…ab12', network: 'eip155:8453' });
    expect(line.err.message).to.equal('execution reverted. Request Arguments: from: 0x3C44…93BC data: 0xab12…ab12');
    expect(line.err.details.to).to.equal('0x3C44…93BC');
  });
});
