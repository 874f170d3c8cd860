import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { createApp } from '../../../../api/app';
import { createHttpServer } from '../../../../api/server';
import { findProfile } from '../../../../shared/profiles';
import { simulateBody } from '../../../fixtures/builders';
import { ARTIFACTS_DIR, launchBrowser } from '../../../helpers/browser';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const PROFILE_NAME = findProfile('grief-support-peer')!.name;

// The public pages as a person opens them: a real headless Chromium against the service over HTTP.
describe('public record pages in a real browser', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let browser: Browser;
  let server: ReturnType<typeof createHttpServer>;
  let base: string;
  let tx: string;

  before(async function () {
    paid = await startPaidStack('records-browser');
    await paid.stack.truncate();
    server = createHttpServer(paid.stack.config.http, createApp(paid.stack.deps).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const payer = paid.payers[0];
    const signed = await signPayment(payer, paid.requirement(50_000), `${PUBLIC_BASE_URL}/api/simulate`);
    const res = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(simulateBody(payer.address));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.score.passed).to.equal(true);
    tx = decodePaymentResponseHeader(res.headers['payment-response'] as string).transaction;
    browser = await launchBrowser();
  });
  after(async function () {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await paid?.close();
  });

  it('renders the certificate of a passed session, with its share meta tags', async function () {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const response = await page.goto(`${base}/api/certificate/${tx}`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-type']).to.match(/^text\/html/);
    const meta = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('meta[property], meta[name]')].map((m) => [m.getAttribute('property') ?? m.getAttribute('name'), m.getAttribute('content')])),
    );
    for (const tag of ['og:title', 'og:description', 'og:url', 'og:image', 'twitter:card']) expect(meta[tag], tag).to.be.a('string').and.not.equal('');
    expect(await page.title()).to.not.equal('');
    expect((await page.locator('body').innerText()).toLowerCase()).to.contain(PROFILE_NAME.toLowerCase());
    // Share URLs are absolute on the configured public origin; fetch the image from this server.
    expect(meta['og:image']).to.match(new RegExp(`^${PUBLIC_BASE_URL}/`));
    const image = await page.request.get(`${base}${new URL(meta['og:image'] as string).pathname}`);
    expect(image.status(), meta['og:image'] as string).to.equal(200);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'certificate.png'), fullPage: true });
    await page.close();
  });

  it("follows the certificate's Public result link to a readable page, not raw JSON", async function () {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${base}/api/certificate/${tx}`);
    // The link is absolute on the public origin; open its path on this server, as the browser would there.
    const href = await page.getByRole('link', { name: 'Public result' }).getAttribute('href');
    expect(href).to.match(new RegExp(`^${PUBLIC_BASE_URL}/api/results/[0-9a-f-]{36}$`));
    const response = await page.goto(`${base}${new URL(href!).pathname}`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-type']).to.match(/^text\/html/);
    expect(await page.locator('h1').innerText()).to.equal(`Scored session: ${PROFILE_NAME}`);
    expect(await page.getByLabel('EQ score').innerText()).to.match(/^\d+\.\d$/);
    expect(await page.locator('[data-verdict]').innerText()).to.match(/^passed$/i);
    const text = await page.locator('body').innerText();
    expect(text).to.not.contain(paid.payers[0].address).and.not.contain(paid.payers[0].address.toLowerCase()).and.not.contain(tx);
    expect(await page.locator('script').count()).to.equal(0);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'public-result.png'), fullPage: true });
    await page.close();
  });

  it('shows a proof card as a readable page on a phone (format=html)', async function () {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    const response = await page.goto(`${base}/api/proof-cards/simulate?format=html`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-type']).to.match(/^text\/html/);
    expect(await page.locator('h1').innerText()).to.equal('POST /api/simulate');
    const layout = await page.evaluate(() => ({ width: window.innerWidth, scroll: document.documentElement.scrollWidth }));
    expect(layout.scroll, 'the curl command wraps instead of widening the page').to.be.at.most(layout.width);
    expect(await page.locator('.tile b').first().innerText()).to.equal('0.05 USDC');
    const delivered = await page.locator('tr', { hasText: 'Answers delivered' }).locator('td.num').innerText();
    expect(delivered).to.match(/^\d+$/);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'proof-card-phone.png'), fullPage: true });
    await page.close();
  });

  it('shows the scoreboard on a phone without sideways scrolling', async function () {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    const response = await page.goto(`${base}/api/scoreboard`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-type']).to.match(/^text\/html/);
    // Laid out at the phone's width (a page without a viewport tag gets a 980 px desktop layout),
    // and nothing wider than the screen.
    const layout = await page.evaluate(() => ({ width: window.innerWidth, scroll: document.documentElement.scrollWidth }));
    expect(layout.width).to.equal(375);
    expect(layout.scroll).to.be.at.most(layout.width);
    expect((await page.locator('body').innerText()).toLowerCase()).to.contain(PROFILE_NAME.toLowerCase());
    // The score distribution is drawn: one chart per profile, its one session a visible bar.
    const charts = page.locator('svg.histogram');
    expect(await charts.count()).to.equal(1);
    const drawn = await charts.first().evaluate((svg) => ({
      box: svg.getBoundingClientRect().width,
      bars: [...svg.querySelectorAll('rect')].map((r) => r.getBoundingClientRect().height),
      colour: getComputedStyle(svg.querySelector('rect')!).fill,
    }));
    expect(drawn.box).to.be.above(40);
    expect(drawn.bars).to.have.length(10);
    expect(drawn.bars.filter((h) => h > 0)).to.have.length(1);
    expect(drawn.colour, 'drawn in the page accent colour').to.equal('rgb(31, 111, 92)');
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'scoreboard-phone.png'), fullPage: true });
    await page.close();
  });
});
