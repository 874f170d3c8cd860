import { expect } from 'chai';
import { loadConfig } from '../../../shared/config';
import { stackQueuePrefix } from '../../../supervisor/queue-prefix';

describe('supervisor/queue-prefix stackQueuePrefix', function () {
  it('derives a distinct, stable prefix from each data folder', function () {
    const a = stackQueuePrefix(undefined, '/home/dev/one/.data');
    const b = stackQueuePrefix(undefined, '/home/dev/two/.data');
    expect(a).to.match(/^humanlike-[0-9a-f]{8}$/);
    expect(b).to.match(/^humanlike-[0-9a-f]{8}$/);
    expect(a).not.to.equal(b);
    expect(stackQueuePrefix(undefined, '/home/dev/one/.data/')).to.equal(a);
    expect(stackQueuePrefix('  ', '/home/dev/one/.data')).to.equal(a);
    // web and worker accept it as QUEUE_PREFIX
    expect(loadConfig({ QUEUE_PREFIX: a }).redis.queuePrefix).to.equal(a);
  });

  it('uses an explicit QUEUE_PREFIX as given', function () {
    expect(stackQueuePrefix('shared-dev', '/home/dev/one/.data')).to.equal('shared-dev');
  });
});
