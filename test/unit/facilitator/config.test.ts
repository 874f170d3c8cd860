import { expect } from 'chai';
import { loadFacilitatorConfig } from '../../../facilitator/config';
import { ConfigError } from '../../../shared/errors';

const REAL = {
  FACILITATOR_RPC_URL: 'https://mainnet.base.org',
  FACILITATOR_PRIVATE_KEY: `0x${'ab'.repeat(32)}`,
  FACILITATOR_NETWORK: 'eip155:8453',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadFacilitatorConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('facilitator/config loadFacilitatorConfig', function () {
  it('defaults to the development chain on 127.0.0.1:4020', function () {
    expect(loadFacilitatorConfig({})).to.deep.equal({ port: 4020, host: '127.0.0.1', logLevel: 'info', chain: undefined, devBlockTimeMs: 0 });
  });

  it('selects a real chain when all three chain variables are set', function () {
    const config = loadFacilitatorConfig({ ...REAL, FACILITATOR_PORT: '0', FACILITATOR_HOST: '0.0.0.0', NODE_ENV: 'production' });
    expect(config).to.deep.include({ port: 0, host: '0.0.0.0' });
    expect(config.chain).to.deep.equal({ rpcUrl: REAL.FACILITATOR_RPC_URL, privateKeys: [REAL.FACILITATOR_PRIVATE_KEY], network: 'eip155:8453', settledLookbackBlocks: 10_000n });
  });

  it('takes several settlement keys separated by commas, each once', function () {
    const second = `0x${'cd'.repeat(32)}`;
    const config = loadFacilitatorConfig({ ...REAL, FACILITATOR_PRIVATE_KEY: `${REAL.FACILITATOR_PRIVATE_KEY}, ${second}` });
    expect(config.chain?.privateKeys).to.deep.equal([REAL.FACILITATOR_PRIVATE_KEY, second]);
    expect(problemsOf({ ...REAL, FACILITATOR_PRIVATE_KEY: `${second},${second.toUpperCase().replace('0X', '0x')}` })[0]).to.match(/lists a key twice/);
    expect(problemsOf({ ...REAL, FACILITATOR_PRIVATE_KEY: `${second},0x12` })[0]).to.match(/must be 0x followed by 64 hex digits/);
  });

  it('names the missing variables when only part of a real chain is set', function () {
    expect(problemsOf({ FACILITATOR_RPC_URL: REAL.FACILITATOR_RPC_URL })).to.deep.equal([
      'a real chain needs FACILITATOR_RPC_URL, FACILITATOR_PRIVATE_KEY and FACILITATOR_NETWORK together; missing FACILITATOR_PRIVATE_KEY, FACILITATOR_NETWORK',
    ]);
  });

  it('refuses the development chain in production', function () {
    expect(problemsOf({ NODE_ENV: 'production' })[0]).to.match(/NODE_ENV=production needs a real chain/);
  });

  it('simulates a block time on the development chain only', function () {
    expect(loadFacilitatorConfig({ FACILITATOR_DEV_BLOCK_TIME_MS: '2000' }).devBlockTimeMs).to.equal(2000);
    expect(problemsOf({ FACILITATOR_DEV_BLOCK_TIME_MS: '2s' })[0]).to.match(/FACILITATOR_DEV_BLOCK_TIME_MS must be 0-60000/);
    expect(problemsOf({ FACILITATOR_DEV_BLOCK_TIME_MS: '60001' })[0]).to.match(/must be 0-60000/);
    expect(problemsOf({ ...REAL, FACILITATOR_DEV_BLOCK_TIME_MS: '2000' })[0]).to.match(/development chain only/);
  });

  it('lists every invalid value at once', function () {
    const problems = problemsOf({ FACILITATOR_PORT: '70000', LOG_LEVEL: 'loud', FACILITATOR_RPC_URL: 'ftp://x', FACILITATOR_PRIVATE_KEY: '0x12', FACILITATOR_NETWORK: 'base' });
    expect(problems).to.have.length(5);
  });
});
