import { expect } from 'chai';
import { isCanaryRequest } from '../../../../api/http/canary';
import type { AppContext } from '../../../../api/http/context';
import { createLogger } from '../../../../shared/logger';
import { mintCredential, revokeCredential } from '../../../../shared/operators/credentials';
import { startTestStack, type TestStack } from '../../../helpers/stack';

describe('isCanaryRequest', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('canary', { worker: false });
    await stack.truncate();
  });
  after(async function () {
    await stack?.close();
  });

  /** A request context as Koa hands it to middleware: headers and state. */
  function requestWith(authorization?: string): AppContext {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    return { get: (name: string) => headers[name.toLowerCase()] ?? '', state: { log: createLogger(stack.config, 'test') } } as unknown as AppContext;
  }
  const check = (authorization?: string) => isCanaryRequest(requestWith(authorization), stack.deps);

  it('is true for a valid operator or admin credential, and false without one', async function () {
    const ds = stack.deps.dataSource;
    const operator = await mintCredential(ds, 'operator', 600);
    const admin = await mintCredential(ds, 'admin', 600);
    expect(await check(`Bearer ${operator.token}`)).to.equal(true);
    expect(await check(`Bearer ${admin.token}`)).to.equal(true);
    expect(await check()).to.equal(false);
    expect(await check('Bearer something-else')).to.equal(false);
  });

  it('ignores an unknown, malformed, expired or revoked credential', async function () {
    const ds = stack.deps.dataSource;
    const revoked = await mintCredential(ds, 'operator', 600);
    await revokeCredential(ds, revoked.credential.id);
    const expiring = await mintCredential(ds, 'operator', 600);
    await ds.query(`UPDATE operator_credentials SET created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' WHERE id = $1`, [expiring.credential.id]);
    expect(await check(`Bearer ${revoked.token}`)).to.equal(false);
    expect(await check(`Bearer ${expiring.token}`)).to.equal(false);
    expect(await check(`Bearer hlo_${'x'.repeat(43)}`)).to.equal(false);
    expect(await check('Bearer hlo_short')).to.equal(false);
  });

  it('keeps its answer on ctx.state.canary', async function () {
    const ctx = requestWith(`Bearer ${(await mintCredential(stack.deps.dataSource, 'operator', 600)).token}`);
    expect(await isCanaryRequest(ctx, stack.deps)).to.equal(true);
    expect(ctx.state.canary).to.equal(true);
  });
});
