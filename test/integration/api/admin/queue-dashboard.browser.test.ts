import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Response } from 'playwright-core';
import { createApp } from '../../../../api/app';
import { createHttpServer } from '../../../../api/server';
import { SCORE_TEXT_JOB } from '../../../../jobs';
import { mintCredential } from '../../../../shared/operators/credentials';
import { ARTIFACTS_DIR, launchBrowser } from '../../../helpers/browser';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const SECRET = 'Please keep my divorce story between us, it still hurts';

/** An admin opens the queue dashboard in a real browser; submitted text never reaches it. */
describe('the queue dashboard in a real browser', function () {
  this.timeout(180_000);
  let stack: TestStack;
  let browser: Browser;
  let server: ReturnType<typeof createHttpServer>;
  let base: string;
  let admin: string;
  let failedJobId: string;

  before(async function () {
    stack = await startTestStack('dashboard-browser');
    await stack.deps.dataSource.query('TRUNCATE network_config_changes, network_config, operator_credentials');
    admin = (await mintCredential(stack.deps.dataSource, 'admin', 3_600)).token;
    // A job the worker fails for good (a profile that does not exist), carrying a caller's text.
    const job = await stack.deps.scoringQueue.add(SCORE_TEXT_JOB, { input: { text: SECRET, profile: 'no-such-profile', delaySeconds: 5 } });
    failedJobId = job.id!;
    const deadline = Date.now() + 20_000;
    while ((await job.getState()) !== 'failed') {
      expect(Date.now(), 'the job failed in time').to.be.below(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
    // No worker from here on: a retried job stays waiting, where the test can see it.
    await stack.worker!.close();
    server = createHttpServer(stack.config.http, createApp(stack.deps).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async function () {
    try {
      await browser?.close();
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await stack?.deps.dataSource.query('TRUNCATE network_config_changes, network_config, operator_credentials');
    } finally {
      await stack?.close();
    }
  });

  it('answers 401 with a Basic challenge to a browser without a credential, and shows nothing', async function () {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const seen: Array<{ status: number; challenge?: string }> = [];
      page.on('response', (r: Response) => seen.push({ status: r.status(), challenge: r.headers()['www-authenticate'] }));
      // Headless Chromium has no prompt to ask for the Basic credentials the 401 challenges for.
      const navigation = await page.goto(`${base}/admin/queues`).then(
        (r) => r,
        (err: Error) => err,
      );
      if (navigation instanceof Error) expect(navigation.message).to.contain('ERR_INVALID_AUTH_CREDENTIALS');
      else expect(navigation?.status()).to.equal(401);
      expect(seen).to.have.length(1);
      expect(seen[0].status).to.equal(401);
      expect(seen[0].challenge).to.match(/^Basic realm="humanlike-operators"/);
    } finally {
      await context.close();
    }
  });

  it('lets an admin see every queue and the failed job with its text redacted, and retry it', async function () {
    const context = await browser.newContext({ httpCredentials: { username: 'admin', password: admin }, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const bodies: string[] = [];
      page.on('response', (r: Response) => {
        if (r.url().includes('/admin/queues/api/')) void r.text().then((t) => bodies.push(t), () => undefined);
      });
      const response = await page.goto(`${base}/admin/queues`);
      expect(response!.status()).to.equal(200);
      for (const name of ['scoring', 'stress', 'exports', 'settlement', 'maintenance']) {
        await page.getByRole('link', { name, exact: true }).first().waitFor({ timeout: 30_000 });
      }
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'queue-dashboard.png'), fullPage: true });

      await page.goto(`${base}/admin/queues/queue/scoring?status=failed`);
      await page.getByText(`#${failedJobId}`).first().waitFor({ timeout: 30_000 });
      await page.getByRole('tab', { name: 'Data' }).first().click().catch(() => undefined);
      await page.getByText('[redacted:').first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'queue-dashboard-failed-job.png'), fullPage: true });
      expect(await page.content()).not.to.contain('divorce');
      expect(bodies.length).to.be.above(0);
      expect(bodies.join('\n')).not.to.contain('divorce');
      // Editing or adding jobs would write the redaction into them: refused.
      const edit = await context.request.patch(`${base}/admin/queues/api/queues/scoring/${failedJobId}/update-data`, { data: { jobData: { input: { text: 'x' } } } });
      expect(edit.status()).to.equal(403);
      expect(((await edit.json()) as { error: { code: string } }).error.code).to.equal('dashboard_action_disabled');
      const add = await context.request.post(`${base}/admin/queues/api/queues/scoring/add`, { data: { name: 'score-text', data: {}, options: {} } });
      expect(add.status()).to.equal(403);

      // The job card's retry action: an icon button (its name is a hover tooltip), the "Retry all" icon beside no text.
      await page.locator('button:has(svg path[d^="M5 4a2 2"])').filter({ hasNotText: 'Retry all' }).first().click();
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      const job = await stack.deps.scoringQueue.getJob(failedJobId);
      const deadline = Date.now() + 10_000;
      let state = await job!.getState();
      while (state === 'failed' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        state = await job!.getState();
      }
      expect(state).to.equal('waiting');
    } finally {
      await context.close();
    }
  });
});
