import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { createApp } from '../../../../api/app';
import { createHttpServer } from '../../../../api/server';
import { EVAL_FIGURES } from '../../../../shared/validation/figures';
import { ARTIFACTS_DIR, launchBrowser } from '../../../helpers/browser';
import { startTestStack, type TestStack } from '../../../helpers/stack';

// The validation page as a person opens it: headless Chromium against the service over HTTP.
describe('validation page in a real browser', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let browser: Browser;
  let server: ReturnType<typeof createHttpServer>;
  let base: string;

  before(async function () {
    stack = await startTestStack('validation-browser', { worker: false });
    server = createHttpServer(stack.config.http, createApp(stack.deps).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async function () {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await stack?.close();
  });

  it('shows one section per dimension with its out-of-domain table, and links its JSON twin and the agreement table', async function () {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const response = await page.goto(`${base}/api/validation`);
    expect(response?.status()).to.equal(200);
    expect(await page.title()).to.contain('validation');
    const headings = await page.locator('section h2').allInnerTexts();
    expect(headings.map((h) => h.toLowerCase())).to.deep.equal(EVAL_FIGURES.sections.map((s) => s.dimension.replace(/_/g, ' ')));
    const empathyRows = await page.locator("section#empathy > .table-wrap tbody tr").allInnerTexts();
    expect(empathyRows.some((r) => r.includes('wassa23 held out'))).to.equal(true);
    const links = await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links).to.include.members(['/api/validation.json', '/api/validation/human-agreement']);
    const twin = await page.request.get(`${base}/api/validation.json`);
    expect(twin.status()).to.equal(200);
    expect(((await twin.json()) as { scorer_version: string }).scorer_version).to.equal(EVAL_FIGURES.scorer_version);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'validation-page.png'), fullPage: false });
    await page.close();
  });
});
