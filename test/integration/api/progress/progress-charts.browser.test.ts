import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { ARTIFACTS_DIR, launchBrowser } from '../../../helpers/browser';
import { seedLedgerSessions } from '../../../helpers/ledger-seed';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const GRIEF = 'grief-support-peer';
const SCORES = [48, 55, 52, 61, 66, 64, 72, 78];

// The progress report's charts as a person sees them: the SVG the paid answer carries, opened in
// a real headless Chromium as an image file and inline.
describe('progress report charts in a real browser', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let browser: Browser;
  let charts: { trend_svg: string; dimension_gaps_svg: string };

  before(async function () {
    paid = await startPaidStack('progress-charts-browser');
    await paid.stack.truncate();
    const payer = paid.payers[0];
    await seedLedgerSessions(paid.stack.deps.dataSource, {
      payer: payer.address.toLowerCase(),
      profile: GRIEF,
      scores: SCORES,
      targets: { empathy: { target: 0.6, tolerance: 0.1 }, formality: { target: 0.4, tolerance: 0.1 }, directness: { target: 0.5, tolerance: 0.1 } },
      measured: () => ({ empathy: 0.45, formality: 0.52, directness: 0.5 }),
    });
    const signed = await signPayment(payer, paid.requirement(180_000), `${PUBLIC_BASE_URL}/api/progress`);
    const res = await paid.stack.http.post('/api/progress').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: payer.address });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    charts = res.body.charts;
    browser = await launchBrowser();
  });
  after(async function () {
    await browser?.close();
    await paid?.close();
  });

  it('opens each chart as a standalone SVG image (what a saved .svg file is)', async function () {
    const page = await browser.newPage();
    for (const svg of [charts.trend_svg, charts.dimension_gaps_svg]) {
      await page.setContent(`<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`);
      const size = await page.locator('img').evaluate(async (img: HTMLImageElement) => {
        await img.decode();
        return { width: img.naturalWidth, height: img.naturalHeight };
      });
      expect(size.width, 'a document Chromium could not parse has no size').to.equal(640);
      expect(size.height).to.be.above(100);
    }
    await page.close();
  });

  it('draws one point per session inside the plot, rising with the scores, and the gaps either side of zero', async function () {
    const page = await browser.newPage({ viewport: { width: 700, height: 700 } });
    await page.setContent(`<!doctype html><body style="margin:0">${charts.trend_svg}${charts.dimension_gaps_svg}</body>`);
    const trend = page.locator('svg').first();
    const box = (await trend.boundingBox())!;
    const points = await trend.locator('circle').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect()).map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 })));
    expect(points).to.have.length(SCORES.length);
    for (const p of points) expect(p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height, JSON.stringify(p)).to.equal(true);
    expect(points.map((p) => p.x)).to.deep.equal([...points.map((p) => p.x)].sort((a, b) => a - b));
    // Screen y grows downwards: a higher score is drawn higher up.
    expect(points[SCORES.length - 1].y).to.be.below(points[0].y);
    const bars = await page.locator('svg').nth(1).locator('rect[data-dimension]').evaluateAll((rs) =>
      rs.map((r) => ({ dimension: r.getAttribute('data-dimension'), left: r.getBoundingClientRect().left, width: r.getBoundingClientRect().width })),
    );
    const byName = Object.fromEntries(bars.map((b) => [b.dimension, b]));
    expect(Object.keys(byName).sort()).to.deep.equal(['directness', 'empathy', 'formality']);
    expect(byName.empathy.width, 'empathy sits 0.15 below its target').to.be.above(byName.formality.width);
    expect(byName.empathy.left + byName.empathy.width).to.be.closeTo(byName.formality.left, 1);
    expect(byName.directness.width, 'on target: no bar').to.equal(0);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'progress-charts.png'), fullPage: true });
    await page.close();
  });
});
