import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { PAYMENT_METHODS, secretHeaderNames } from '../../../api/payments/methods';
import { connectionErrorListener, createLogger } from '../../../shared/logger';

function capture(secretHeaders: readonly string[] = []) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger({ log: { level: 'info' } }, 'test', stream, secretHeaders) };
}

describe('createLogger', function () {
  it('writes JSON lines with the service and redacts every payment method\'s secret headers', function () {
    const secret = secretHeaderNames(PAYMENT_METHODS);
    expect(secret.map((h) => h.toLowerCase())).to.include.members(['payment-signature', 'x-payment', 'x-bundle-token']);
    const { lines, log } = capture(secret);
    log.info({ req: { headers: { 'payment-signature': 'sig', 'x-payment': 'pay', 'x-bundle-token': 'hlb_tok', 'x-forwarded-for': '198.51.100.1', accept: 'json' } } }, 'hello');
    expect(lines[0]).to.include({ service: 'test', msg: 'hello' });
    expect(JSON.stringify(lines[0])).not.to.match(/sig"|pay"|hlb_tok|198\.51/);
    expect((lines[0].req as { headers: Record<string, string> }).headers.accept).to.equal('json');
  });
});

describe('createLogger on stdout', function () {
  it('has written a line by the time the call returns: a process killed right after it keeps its last words', function () {
    // The child logs, then dies by SIGKILL in the same tick: nothing after the call can flush.
    const script = [
      "const { createLogger } = require('./shared/logger');",
      "createLogger({ log: { level: 'info' } }, 'web').fatal({ code: 'boom' }, 'dying');",
      "process.kill(process.pid, 'SIGKILL');",
    ].join('\n');
    for (let run = 0; run < 5; run++) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: `${__dirname}/../../..`, encoding: 'utf8', timeout: 20_000 });
      expect(child.signal, child.stderr).to.equal('SIGKILL');
      const lines = child.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines, `run ${run}`).to.have.length(1);
      expect(lines[0]).to.include({ service: 'web', msg: 'dying', code: 'boom' });
    }
  });
});

describe('connectionErrorListener', function () {
  it('logs the first connection error of an outage, then stays quiet', function () {
    const { lines, log } = capture();
    const listener = connectionErrorListener(log, { queue: 'scoring' }, 'queue error');
    for (let i = 0; i < 5; i++) listener(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    listener(new Error('unexpected reply'));
    expect(lines.map((l) => (l.err as { message: string }).message)).to.deep.equal(['connect ECONNREFUSED 127.0.0.1:6379', 'unexpected reply']);
    expect(lines[0]).to.include({ queue: 'scoring', msg: 'queue error' });
  });
});
