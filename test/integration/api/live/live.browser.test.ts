import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../../../../api/app';
import { createHttpServer } from '../../../../api/server';
import { findProfile } from '../../../../shared/profiles';
import { simulateBody } from '../../../fixtures/builders';
import { seedLedgerRow } from '../../../helpers/ledger-seed';
import { ARTIFACTS_DIR, launchBrowser } from '../../../helpers/browser';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const PROFILE_NAME = findProfile('grief-support-peer')!.name;

/** A page that records every console error, uncaught error and CSP violation. */
async function watchedPage(browser: Browser, viewport: { width: number; height: number }, isMobile = false): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport, isMobile });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.exposeFunction('reportCspViolation', (directive: string) => problems.push(`csp: ${directive}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportCspViolation(d: string): void }).reportCspViolation(e.violatedDirective);
    });
  });
  return { page, problems };
}

// The live dashboard as a person opens it: a real headless Chromium against the service over HTTP,
// a real paid session settling meanwhile.
describe('the live page in a real browser', function () {
  this.timeout(90_000);
  let paid: PaidStack;
  let browser: Browser;
  let server: ReturnType<typeof createHttpServer>;
  let base: string;

  before(async function () {
    paid = await startPaidStack('live-browser');
    await paid.stack.truncate();
    server = createHttpServer(paid.stack.config.http, createApp(paid.stack.deps).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async function () {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await paid?.close();
  });

  it('shows a paid session that settles while it is open, without a reload, and refreshes the leaderboard and stats', async function () {
    const { page, problems } = await watchedPage(browser, { width: 390, height: 844 }, true);
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    const response = await page.goto(`${base}/live`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-type']).to.match(/^text\/html/);
    expect(response?.headers()['content-security-policy']).to.match(/default-src 'none'.*script-src 'sha256-/);
    // The feed is open and the first stats arrived: the script ran under the CSP.
    await page.waitForSelector('#status[data-state="live"]');
    await page.waitForFunction(() => document.getElementById('stat-total')?.textContent === '0');
    expect(await page.locator('#feed li').count()).to.equal(0);
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));

    const payer = paid.payers[0];
    const signed = await signPayment(payer, paid.requirement(50_000), `${PUBLIC_BASE_URL}/api/simulate`);
    const res = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(simulateBody(payer.address));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const resultId = res.body.result_id as string;
    const maskedWallet = `${payer.address.slice(0, 6)}…${payer.address.slice(-4)}`;

    const row = page.locator(`#feed li[data-result-id="${resultId}"]`);
    await row.waitFor({ timeout: 15_000 });
    const text = await row.innerText();
    expect(text).to.contain(PROFILE_NAME);
    expect(text).to.contain((res.body.score.eq_score as number).toFixed(1));
    expect(text.toLowerCase()).to.contain('pass');
    expect(text).to.contain(maskedWallet);
    expect(text.toLowerCase()).to.not.contain(payer.address.toLowerCase());
    expect(await page.locator('#feed-empty').isHidden()).to.equal(true);
    // No reload: the same document, navigated once.
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).to.equal('same document');
    expect(navigations).to.equal(1);

    // Stats refresh on arrival; the leaderboard once its server cache (10 s) has passed.
    await page.waitForFunction(() => document.getElementById('stat-total')?.textContent === '1', undefined, { timeout: 10_000 });
    await page.waitForFunction((w) => document.getElementById('board')?.textContent?.includes(w) === true, maskedWallet, { timeout: 20_000 });
    expect(await page.locator('#board tr').count()).to.equal(1);

    const layout = await page.evaluate(() => ({ width: window.innerWidth, scroll: document.documentElement.scrollWidth }));
    expect(layout.scroll).to.be.at.most(layout.width);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'live-phone.png'), fullPage: true });
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('lays out feed and sidebar side by side on a wide screen, at / as well', async function () {
    const { page, problems } = await watchedPage(browser, { width: 1280, height: 800 });
    const response = await page.goto(`${base}/`);
    expect(response?.status()).to.equal(200);
    await page.waitForSelector('#feed li');
    const [feed, aside] = await Promise.all([page.locator('main > section').boundingBox(), page.locator('main > aside').boundingBox()]);
    expect(aside!.x).to.be.greaterThan(feed!.x + feed!.width - 1);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'live-desktop.png'), fullPage: true });
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('shows purchases, reports and analyses as what they are, and prices as money', async function () {
    const ds = paid.stack.deps.dataSource;
    const payer = `0x${'7'.repeat(40)}`;
    const bundle = await seedLedgerRow(ds, { payer, product: 'bundle', tier: 'bundle', amount: 42_500_000, ago: '4 minutes' });
    const coaching = await seedLedgerRow(ds, { payer, product: 'coaching', amount: 540_000, ago: '3 minutes' });
    const script = await seedLedgerRow(ds, { payer, product: 'script-check', score: 75, amount: 180_000, ago: '2 minutes' });
    const leg = await seedLedgerRow(ds, { payer, product: 'duel', profile: 'grief-support-peer', score: 81.5, passed: true, amount: 75_000, ago: '1 minute' });
    const { page, problems } = await watchedPage(browser, { width: 1280, height: 800 });
    await page.goto(`${base}/live`);
    const row = (id: string) => page.locator(`#feed li[data-result-id="${id}"]`);
    await row(leg.resultId).waitFor({ timeout: 15_000 });
    const texts = {
      bundle: await row(bundle.resultId).innerText(),
      coaching: await row(coaching.resultId).innerText(),
      script: await row(script.resultId).innerText(),
      leg: await row(leg.resultId).innerText(),
    };
    for (const text of [texts.bundle, texts.coaching, texts.script]) {
      expect(text).to.not.contain('No profile');
      expect(text.split('\n').map((line) => line.trim())).to.not.include('-');
    }
    expect(texts.bundle).to.contain('Bundle purchase').and.contain('42.50 USDC');
    expect(texts.bundle.toLowerCase()).to.contain('purchase');
    expect(texts.coaching).to.contain('Coaching pack').and.contain('0.54 USDC');
    expect(texts.script).to.contain('Script check').and.contain('0.18 USDC');
    expect(texts.script).to.not.contain('75.0');
    expect(texts.leg).to.contain(PROFILE_NAME).and.contain('81.5').and.contain('Duel leg').and.contain('0.075 USDC');
    expect(await row(leg.resultId).getAttribute('data-kind')).to.equal('scored_session');
    expect(await row(bundle.resultId).getAttribute('data-kind')).to.equal('purchase');
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'live-kinds.png'), fullPage: true });
    expect(problems).to.deep.equal([]);
    await page.close();
  });
});
