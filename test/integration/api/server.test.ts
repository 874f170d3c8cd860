import { expect } from 'chai';
import { startWeb } from '../../../api/server';
import { createLogger } from '../../../shared/logger';
import { testConfig } from '../../helpers/config';
import { ensureTestDatabase } from '../../helpers/db';
import { queuePrefix } from '../../helpers/redis';

describe('api/server startWeb', function () {
  it('listens, answers, and closes every handle on shutdown', async function () {
    const config = testConfig({ DATABASE_URL: await ensureTestDatabase(), QUEUE_PREFIX: queuePrefix('server') });
    const runtime = await startWeb(config, createLogger(config, 'test'));
    try {
      const res = await fetch(`http://127.0.0.1:${runtime.port}/api/healthz`, { headers: { 'X-Request-Id': 'server-test-1' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-request-id')).to.equal('server-test-1');
    } finally {
      await runtime.close();
    }
    expect(runtime.server.listening).to.equal(false);
  });
});
