import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { createLogger } from '../../../../shared/logger';
import { startWorkers, type WorkerRuntime } from '../../../../workers/main';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { spawnWorker } from '../../../helpers/worker-process';
import { signPayment } from '../../../helpers/x402-payments';
import { simulateBody } from '../../../fixtures/builders';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const BASIC = 50_000n;

const session = simulateBody;

describe('paid sessions when the facilitator or a worker fails', function () {
  this.timeout(90_000);

  describe('with an in-process worker', function () {
    let paid: PaidStack;

    before(async function () {
      paid = await startPaidStack('simulate-failures', { env: { JOB_BACKOFF_MS: '50' } });
    });
    after(async function () {
      await paid?.close();
    });
    beforeEach(async function () {
      await paid.stack.truncate();
      paid.proxy.reset();
    });

    async function post(header: string, wallet: string) {
      return paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', header).send(session(wallet));
    }

    it('facilitator down before verification: 503, nothing reserved; the same authorization works once it is back', async function () {
      const payer = paid.payers[0];
      const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
      paid.proxy.set('*', 'drop');
      const down = await post(signed.header, payer.address);
      expect(down.status).to.equal(503);
      expect(down.body.error.code).to.equal('facilitator_unavailable');
      expect(await paid.count('payment_authorizations')).to.equal(0);

      paid.proxy.reset();
      const before = await paid.balanceOf(payer.address);
      const back = await post(signed.header, payer.address);
      expect(back.status, JSON.stringify(back.body)).to.equal(200);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
    });

    for (const fault of ['drop', 'error500'] as const) {
      it(`facilitator ${fault === 'drop' ? 'down' : 'failing'} at settlement: no charge, result withheld (504 settlement_pending: the outcome is unknown), the same authorization settles once it is back`, async function () {
        const payer = paid.payers[1];
        const before = await paid.balanceOf(payer.address);
        const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
        paid.proxy.set('/settle', fault);
        const failed = await post(signed.header, payer.address);
        // Without an answer the service cannot know nothing moved: it asks the chain, which shows
        // the authorization unused and still valid, so it stays pending.
        expect(failed.status, JSON.stringify(failed.body)).to.equal(504);
        expect(failed.body.error.code).to.equal('settlement_pending');
        expect(failed.headers['retry-after']).to.equal('5');
        expect(failed.body).to.not.have.any.keys('score', 'result_id');
        expect(failed.headers['payment-response']).to.equal(undefined);
        expect(await paid.balanceOf(payer.address)).to.equal(before);
        expect(await paid.count('ledger_sessions')).to.equal(0);

        paid.proxy.set('/settle', 'pass');
        const back = await post(signed.header, payer.address);
        expect(back.status, JSON.stringify(back.body)).to.equal(200);
        expect(back.body.score.eq_score).to.be.a('number');
        expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
        expect(await paid.count('ledger_sessions')).to.equal(1);
      });
    }

    it('a settlement whose answer was lost is retried and reconciled: charged once', async function () {
      const payer = paid.payers[2];
      const before = await paid.balanceOf(payer.address);
      const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
      paid.proxy.set('/settle', 'lose-response');
      // The first settle reaches the facilitator and lands on chain; its answer is lost. The retry passes.
      paid.proxy.events.once('request', () => setTimeout(() => paid.proxy.set('/settle', 'pass'), 0));
      const res = await post(signed.header, payer.address);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(paid.proxy.counts.get('/settle')).to.be.at.least(2);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BASIC);
      expect(await paid.count('ledger_sessions')).to.equal(1);
    });
  });

  describe('a worker killed between scoring and settlement', function () {
    let paid: PaidStack;
    let child: ChildProcess | undefined;
    let rescuer: WorkerRuntime | undefined;

    before(async function () {
      paid = await startPaidStack('simulate-worker-kill', { worker: false, env: { SETTLEMENT_WAIT_TIMEOUT_MS: '4000' } });
      await paid.stack.truncate();
    });
    after(async function () {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rescuer?.close();
      await paid?.close();
    });

    it('charges nothing twice, and delivers the result on retry with the same authorization', async function () {
      const payer = paid.payers[3];
      const treasury = paid.facilitator.treasury;
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      child = await spawnWorker(paid.stack, {
        X402_FACILITATOR_URL: paid.proxy.url,
        X402_NETWORK: paid.facilitator.network,
        USDC_ASSET_ADDRESS: paid.facilitator.asset,
        TREASURY_EVM_ADDRESS: treasury,
      });
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      // The worker scores, then asks for settlement: hold that request and kill the worker.
      paid.proxy.set('/settle', 'hang');
      paid.proxy.events.on('request', (path: string) => {
        if (path === '/settle') child!.kill('SIGKILL');
      });

      const signed = await signPayment(payer, paid.requirement(Number(BASIC)), RESOURCE);
      const first = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session(payer.address));
      await exited;
      expect(first.status, JSON.stringify(first.body)).to.equal(504);
      expect(first.body.error.code).to.equal('settlement_pending');
      expect(await paid.balanceOf(payer.address)).to.equal(before.payer);
      const rows = (await paid.stack.deps.dataSource.query(`SELECT status FROM payment_authorizations`)) as Array<{ status: string }>;
      expect(rows).to.deep.equal([{ status: 'scored' }]);

      paid.proxy.events.removeAllListeners('request');
      paid.proxy.set('/settle', 'pass');
      rescuer = await startWorkers(paid.stack.config, createLogger(paid.stack.config, 'rescuer'));
      const retry = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(session(payer.address));
      expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
      expect(retry.headers['x-payment-replayed']).to.equal('true');
      expect(retry.body.score.suggested_prompt_addition).to.be.a('string');
      expect(await paid.balanceOf(payer.address)).to.equal(before.payer - BASIC);
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BASIC);
      expect(await paid.count('ledger_sessions')).to.equal(1);
    });
  });
});
