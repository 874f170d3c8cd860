import { expect } from 'chai';
import { BASE_USDC_ADDRESS, DEV_CALLER_HASH_KEY, loadConfig, DEV_PILOT_AGENT_KEY_SECRET } from '../../../shared/config';
import { ConfigError } from '../../../shared/errors';

describe('loadConfig', function () {
  it('applies defaults that make `npm start` work with an empty environment', function () {
    const cfg = loadConfig({});
    expect(cfg.env).to.equal('development');
    expect(cfg.http).to.include({ port: 3000, trustedProxyHops: 0, corsOrigin: '*' });
    expect(cfg.redis).to.deep.equal({ url: 'redis://127.0.0.1:6379', queuePrefix: 'humanlike' });
    expect(cfg.db.url).to.equal(undefined);
    expect(cfg.freeTier).to.include({ callerHashKey: DEV_CALLER_HASH_KEY, scoreLimit: 3, wishlistRequiredFrom: 3 });
    expect(cfg.jobs.waitTimeoutMs).to.equal(15_000);
    expect(cfg.payments).to.deep.include({ network: 'eip155:8453', usdcAsset: BASE_USDC_ADDRESS });
    expect(cfg.scoring.threads).to.be.at.least(1);
  });

  it('coerces strings into a typed, nested, frozen object', function () {
    const cfg = loadConfig({ PORT: '8080', DATABASE_SSL: 'true', TRUSTED_PROXY_HOPS: '2', TREASURY_EVM_ADDRESS: `0x${'a'.repeat(40)}` });
    expect(cfg.http.port).to.equal(8080);
    expect(cfg.db.ssl).to.equal(true);
    expect(cfg.http.trustedProxyHops).to.equal(2);
    expect(cfg.payments.treasury.evm).to.equal(`0x${'a'.repeat(40)}`);
    expect(Object.isFrozen(cfg)).to.equal(true);
    expect(Object.isFrozen(cfg.http)).to.equal(true);
    expect(Object.isFrozen(cfg.payments.treasury)).to.equal(true);
  });

  it('lets the outbound guard through nothing extra by default, and reads explicit allowances', function () {
    expect(loadConfig({}).outbound).to.deep.equal({ allowAddresses: [], allowPorts: [] });
    const cfg = loadConfig({ OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1, ::1, 10.0.0.0/8', OUTBOUND_ALLOW_PORTS: '8080,3001' });
    expect(cfg.outbound).to.deep.equal({ allowAddresses: ['127.0.0.1', '::1', '10.0.0.0/8'], allowPorts: [8080, 3001] });
    for (const bad of ['127.0.0.1/33', '1.2.3', '::1/129', '10.0.0.0/8/1']) {
      expect(() => loadConfig({ OUTBOUND_ALLOW_ADDRESSES: bad }), bad).to.throw(ConfigError, /OUTBOUND_ALLOW_ADDRESSES/);
    }
    expect(() => loadConfig({ OUTBOUND_ALLOW_PORTS: '70000' })).to.throw(ConfigError, /OUTBOUND_ALLOW_PORTS/);
  });

  it('treats empty strings as unset', function () {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).http.port).to.equal(3000);
  });

  it('throws one error listing every problem, without echoing values', function () {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', REDIS_URL: 'http://secret@host', FREE_SCORE_LIMIT: '-1', DATABASE_URL: 'mysql://u:hunter2@h/db' });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).to.have.length(4);
    expect(problems.join('\n')).to.contain('PORT').and.contain('REDIS_URL').and.contain('FREE_SCORE_LIMIT').and.contain('DATABASE_URL');
    expect((err as Error).message).not.to.contain('hunter2');
  });

  it('refuses a free cap above 3 in production, where it is a product rule', function () {
    const secret = { CALLER_HASH_KEY: 'a-real-secret-of-enough-length' };
    expect(() => loadConfig({ NODE_ENV: 'production', ...secret, FREE_SCORE_LIMIT: '1000' })).to.throw(ConfigError, /FREE_SCORE_LIMIT/);
    expect(loadConfig({ NODE_ENV: 'production', ...secret, FREE_SCORE_LIMIT: '3' }).freeTier.scoreLimit).to.equal(3);
    expect(loadConfig({ FREE_SCORE_LIMIT: '1000' }).freeTier.scoreLimit).to.equal(1000);
  });

  it('bounds slow requests well below Node\'s 300 s and limits the live feed by default', function () {
    const cfg = loadConfig({});
    expect(cfg.http).to.include({ headersTimeoutMs: 15_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 });
    expect(cfg.feed).to.deep.equal({ maxPerCaller: 5, maxConnections: 1000 });
    const tuned = loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '4000', FEED_MAX_PER_CALLER: '2', FEED_MAX_CONNECTIONS: '50' });
    expect(tuned.http).to.include({ headersTimeoutMs: 2_000, requestTimeoutMs: 4_000 });
    expect(tuned.feed).to.deep.equal({ maxPerCaller: 2, maxConnections: 50 });
  });

  it('refuses a headers timeout longer than the request timeout, and a feed limit of 0', function () {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000', HTTP_REQUEST_TIMEOUT_MS: '30000' })).to.throw(ConfigError, /HTTP_HEADERS_TIMEOUT_MS must not exceed/);
    expect(() => loadConfig({ FEED_MAX_PER_CALLER: '0' })).to.throw(ConfigError, /FEED_MAX_PER_CALLER/);
  });

  it('reads the paid admission bounds, and refuses a least limit above the greatest', function () {
    expect(loadConfig({}).payments.admission).to.deep.equal({ min: 4, max: 1024 });
    expect(loadConfig({ PAID_ADMISSION_MIN: '8', PAID_ADMISSION_MAX: '8' }).payments.admission).to.deep.equal({ min: 8, max: 8 });
    expect(() => loadConfig({ PAID_ADMISSION_MIN: '64', PAID_ADMISSION_MAX: '16' })).to.throw(ConfigError, /PAID_ADMISSION_MIN must not exceed PAID_ADMISSION_MAX/);
    expect(() => loadConfig({ PAID_ADMISSION_MIN: '0' })).to.throw(ConfigError, /PAID_ADMISSION_MIN/);
  });

  it('refuses the development caller-hash key in production', function () {
    expect(() => loadConfig({ NODE_ENV: 'production' })).to.throw(ConfigError, /CALLER_HASH_KEY/);
    expect(loadConfig({ NODE_ENV: 'production', CALLER_HASH_KEY: 'a-real-secret-of-enough-length' }).env).to.equal('production');
  });

  it('keeps the pilot agent-key secret unset in production unless given, and refuses the development one there', function () {
    const prod = { NODE_ENV: 'production', CALLER_HASH_KEY: 'a-real-secret-of-enough-length' };
    expect(loadConfig(prod).pilot.agentKeySecret).to.equal(undefined);
    expect(loadConfig({}).pilot.agentKeySecret).to.equal(DEV_PILOT_AGENT_KEY_SECRET);
    const own = 'x'.repeat(32);
    expect(loadConfig({ ...prod, PILOT_AGENT_KEY_SECRET: own }).pilot.agentKeySecret).to.equal(own);
    expect(() => loadConfig({ ...prod, PILOT_AGENT_KEY_SECRET: DEV_PILOT_AGENT_KEY_SECRET })).to.throw(ConfigError, /PILOT_AGENT_KEY_SECRET/);
    expect(() => loadConfig({ PILOT_AGENT_KEY_SECRET: 'short' })).to.throw(ConfigError, /PILOT_AGENT_KEY_SECRET/);
  });
});
