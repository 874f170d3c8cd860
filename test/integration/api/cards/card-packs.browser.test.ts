import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS_DIR, launchBrowser } from '../../../helpers/browser';
import { until } from '../../../helpers/until';
import { startNpmStart, type RunningStack } from '../../supervisor/npm-start';

// The whole human flow on `npm start`'s defaults (no STRIPE_SECRET_KEY: the local card processor),
// in a real headless Chromium: the packs, a checkout, the hosted page filled like a person would,
// the redirect back, and the credits on the balance.
describe('buying a card pack in a real browser on npm start', function () {
  this.timeout(180_000);
  let stack: RunningStack;
  let browser: Browser;
  let dataDir: string;

  before(async function () {
    dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-cards-'));
    stack = await startNpmStart({ DATA_DIR: dataDir, PORT: '0' }, 150_000);
    browser = await launchBrowser();
  });
  after(async function () {
    await browser?.close();
    if (stack) {
      stack.child.kill('SIGTERM');
      await stack.exited;
      stack.killAll();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function balanceOf(page: Page, token: string): Promise<{ credits_remaining: number; card: { pending_purchases: unknown[] } }> {
    const res = await page.request.get(`${stack.url}/api/bundle/balance`, { headers: { 'X-BUNDLE-TOKEN': token } });
    expect(res.status()).to.equal(200);
    return (await res.json()) as { credits_remaining: number; card: { pending_purchases: unknown[] } };
  }

  async function startCheckout(page: Page, pack: string): Promise<{ checkout_url: string; bundle_token: string }> {
    const res = await page.request.post(`${stack.url}/api/card/checkout`, { data: { pack } });
    expect(res.status()).to.equal(201);
    return (await res.json()) as { checkout_url: string; bundle_token: string };
  }

  async function fillCard(page: Page, number: string): Promise<void> {
    // Found by their standard autocomplete tokens, as a browser's autofill finds them.
    await page.fill('input[autocomplete="cc-name"]', 'Ada Lovelace');
    await page.fill('input[autocomplete="cc-number"]', number);
    await page.fill('input[autocomplete="cc-exp"]', '12 / 34');
    await page.fill('input[autocomplete="cc-csc"]', '123');
    await page.getByRole('button', { name: /^Pay / }).click();
  }

  it('says at start that nothing real is charged', async function () {
    await until(() => stack.printed.some((l) => l.includes('local development card processor')), 10_000, 'the card lines');
    expect(stack.printed.join('\n')).to.contain('nothing real is charged');
  });

  it('buys the starter pack with the success card and shows its credits on the balance', async function () {
    const page = await browser.newPage();
    const packs = await page.goto(`${stack.url}/api/card/packs`);
    expect(packs?.status()).to.equal(200);
    const body = JSON.parse(await page.locator('body').innerText()) as { packs: Array<{ id: string; credits: number }> };
    expect(body.packs.find((p) => p.id === 'starter')?.credits).to.equal(105);

    const checkout = await startCheckout(page, 'starter');
    expect((await balanceOf(page, checkout.bundle_token)).card.pending_purchases).to.have.length(1);
    await page.goto(checkout.checkout_url);
    expect(await page.locator('#amount').innerText()).to.equal('$5.00');
    await fillCard(page, '4242 4242 4242 4242');
    await page.waitForURL(/\/api\/card\/checkout\/complete\?session_id=cs_/);
    expect(page.url()).to.not.contain(checkout.bundle_token);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'card-checkout-complete.png') });
    await until(async () => (await balanceOf(page, checkout.bundle_token)).credits_remaining === 105, 20_000, 'the credits');
    await page.reload();
    expect(await page.locator('#purchase-status').getAttribute('data-status')).to.equal('paid');
    await page.close();
  });

  it('grants nothing when the card is declined', async function () {
    const page = await browser.newPage();
    const checkout = await startCheckout(page, 'builder');
    await page.goto(checkout.checkout_url);
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).to.contain('declined');
    expect(page.url()).to.match(/\/pay\/cs_/);
    const after = await balanceOf(page, checkout.bundle_token);
    expect(after.credits_remaining).to.equal(0);
    expect(after.card.pending_purchases).to.have.length(1);
    await page.close();
  });
});
