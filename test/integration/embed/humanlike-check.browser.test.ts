import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import Koa from 'koa';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../../../api/app';
import { createHttpServer } from '../../../api/server';
import { hashBundleToken, newBundleToken } from '../../../api/payments/bundle-credit/bundle-token';
import { humanlikeKoa } from '../../../embed/host';
import { launchBrowser } from '../../helpers/browser';
import { startChatProvider, type LocalChatProvider } from '../../helpers/chat-completions';
import { startTestStack, type TestStack } from '../../helpers/stack';
import { until } from '../../helpers/until';

interface PageCheck {
  key: string;
  draft: string;
  status?: number;
}

declare global {
  interface Window {
    __checks: PageCheck[];
  }
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

// The component as a company's page uses it: a real headless Chromium on a host page served by a
// Koa host with the adapter, forwarding to a real stack (PostgreSQL, Redis, worker), on a
// controlled clock.
describe('<humanlike-check> in a real browser', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let service: Server;
  let host: Server;
  let hostUrl: string;
  let serviceUrl: string;
  let browser: Browser;
  let dir: string;
  const token = newBundleToken();
  let bundleId: string;
  // Test-controlled faults of the host: answer the next N checks 503 with Retry-After: 1.
  let failNext = 0;
  // Test-controlled delay of the host: while set, each check waits for it before going on.
  let holdChecks: Promise<void> | undefined;
  let chat: LocalChatProvider;
  const hostSeen: Array<{ key: string | undefined; headers: Record<string, string | string[] | undefined> }> = [];

  before(async function () {
    chat = await startChatProvider();
    stack = await startTestStack('embed-browser', { env: { LLM_BASE_URL: chat.url, LLM_API_KEY: 'sk-local-test', LLM_MODEL: 'local-model' } });
    await stack.truncate();
    const query = (sql: string, params: unknown[]) => stack.deps.dataSource.query(sql, params) as Promise<Array<{ id: string }>>;
    const [auth] = await query(
      `INSERT INTO payment_authorizations (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, payment)
       VALUES ('exact-evm', 'eip155:8453', '0xasset', '0xpayer', $1, 2, '/api/bundle', 'bundle', 'bundle', 42500000, $2, $3, '{}') RETURNING id`,
      [`0x${randomBytes(32).toString('hex')}`, randomBytes(32).toString('hex'), randomUUID()],
    );
    const [row] = await query(
      `INSERT INTO bundles (wallet, plan, source, credits_total, credits_remaining, authorization_id, token_hash)
       VALUES ('0xpayer', 'bundle', 'purchase', 1000, 1000, $1, $2) RETURNING id`,
      [auth.id, hashBundleToken(token)],
    );
    bundleId = row.id;
    service = createHttpServer(stack.config.http, createApp(stack.deps).callback());
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;

    dir = mkdtempSync(path.join(tmpdir(), 'humanlike-browser-'));
    const app = new Koa();
    app.use(async (ctx, next) => {
      if (ctx.path === '/favicon.ico') {
        ctx.status = 204;
        return;
      }
      if (ctx.path === '/contextual') {
        ctx.type = 'html';
        ctx.body = `<!doctype html><html><head><meta charset="utf-8"><title>Host</title>
          <script src="${serviceUrl}/api/embed/humanlike-check-1.js"></script></head>
          <body><humanlike-check endpoint="/humanlike/check" mode="contextual" situation="A customer asks about a delayed refund."><textarea rows="6" cols="60" aria-label="Reply"></textarea></humanlike-check></body></html>`;
        return;
      }
      if (ctx.path === '/') {
        ctx.type = 'html';
        // The component twice: defining it a second time must not throw.
        ctx.body = `<!doctype html><html><head><meta charset="utf-8"><title>Host</title>
          <script src="${serviceUrl}/api/embed/humanlike-check-1.js"></script>
          <script src="${serviceUrl}/api/embed/humanlike-check-1.js"></script></head>
          <body><humanlike-check endpoint="/humanlike/check"><textarea rows="6" cols="60" aria-label="Reply"></textarea></humanlike-check></body></html>`;
        return;
      }
      if (ctx.path === '/humanlike/check') {
        hostSeen.push({ key: ctx.get('idempotency-key') || undefined, headers: { ...ctx.headers } });
        if (holdChecks) await holdChecks;
        if (failNext > 0) {
          failNext--;
          ctx.status = 503;
          ctx.set('Retry-After', '1');
          ctx.body = { error: { code: 'queue_unavailable', message: 'injected', details: null } };
          return;
        }
      }
      await next();
    });
    app.use(humanlikeKoa({ serviceUrl, bundleToken: token, spend: path.join(dir, 'spend.json') }));
    host = createServer(app.callback());
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async function () {
    await browser?.close();
    if (host) await closeServer(host);
    if (service) await closeServer(service);
    await stack?.close();
    await chat?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function openPage(pagePath = '/'): Promise<{ page: Page; problems: string[]; requests: Array<{ url: string; headers: Record<string, string>; body: string }> }> {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const problems: string[] = [];
    const requests: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('request', (r) => {
      void r.allHeaders().then((headers) => requests.push({ url: r.url(), headers, body: r.postData() ?? '' }));
    });
    // Every check the component starts, seen in the page as it calls fetch.
    await page.addInitScript(() => {
      window.__checks = [];
      const real = window.fetch.bind(window);
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        const entry: PageCheck = { key: headers.get('Idempotency-Key') ?? '', draft: (JSON.parse(String(init?.body ?? '{}')) as { draft: string }).draft };
        window.__checks.push(entry);
        const res = await real(input, init);
        entry.status = res.status;
        return res;
      };
    });
    await page.clock.install({ time: Date.now() });
    expect((await page.goto(`${hostUrl}${pagePath}`))?.status()).to.equal(200);
    await page.waitForFunction(() => customElements.get('humanlike-check') !== undefined);
    // The installed clock flows until paused; from here only runFor moves it.
    await page.clock.pauseAt(Date.now() + 1_000);
    return { page, problems, requests };
  }

  const checks = (page: Page) => page.evaluate(() => window.__checks.map((c) => ({ ...c })));
  const answered = (page: Page, n: number) =>
    until(async () => (await checks(page)).filter((c) => c.status !== undefined).length >= n, 15_000, `${n} answered checks`);
  const markedCodes = (page: Page) =>
    page.evaluate(() => [...document.querySelector('humanlike-check')!.shadowRoot!.querySelectorAll('mark')].map((m) => (m as HTMLElement).dataset.code));
  const creditsLeft = async () => Number(((await stack.deps.dataSource.query(`SELECT credits_remaining FROM bundles WHERE id = $1`, [bundleId])) as Array<{ credits_remaining: number }>)[0].credits_remaining);

  it('debounces typing, starts at most one check every 2 s, and makes a new key after an edit', async function () {
    const { page, problems } = await openPage();
    const area = page.locator('textarea');
    await area.fill('Thanks, I will call you tomorrow.');
    await page.clock.runFor(799);
    expect(await checks(page)).to.have.length(0);
    await page.clock.runFor(1);
    expect(await checks(page)).to.have.length(1);
    await answered(page, 1);

    // An edit 100 ms later: its debounce ends 900 ms after the first start, but the next start waits for 2 s.
    await page.clock.runFor(100);
    await area.fill('Thanks, I will call you tomorrow at noon.');
    await page.clock.runFor(1899);
    expect(await checks(page)).to.have.length(1);
    await page.clock.runFor(1);
    const two = await checks(page);
    expect(two).to.have.length(2);
    expect(two[1].key).to.not.equal(two[0].key);
    expect(two[1].key).to.match(/^embed-\d{13}-[0-9a-f]+$/);
    await answered(page, 2);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('retries a 503 with the same key after Retry-After, charging once', async function () {
    const { page } = await openPage();
    const before = await creditsLeft();
    failNext = 1;
    await page.locator('textarea').fill('Got it. I moved the meeting to Friday.');
    await page.clock.runFor(800);
    await answered(page, 1);
    expect((await checks(page))[0].status).to.equal(503);
    await page.clock.runFor(999);
    expect(await checks(page)).to.have.length(1);
    await page.clock.runFor(1);
    await answered(page, 2);
    const [first, second] = await checks(page);
    expect(second.status).to.equal(200);
    expect(second.key).to.equal(first.key);
    expect(await creditsLeft()).to.equal(before - 1);
    await page.close();
  });

  it('draws each mark over the right characters of a text with emoji, with keyboard-reachable fixes', async function () {
    const { page, requests } = await openPage();
    const text = 'Cafe\u0301 👍🏽 \u{1F469}\u200D\u{1F4BB} Great question! The plan works. I hope this helps!';
    await page.locator('textarea').fill(text);
    await page.clock.runFor(800);
    await answered(page, 1);
    await page.waitForFunction(() => (document.querySelector('humanlike-check')?.shadowRoot?.querySelectorAll('mark').length ?? 0) > 0);
    const marks = await page.evaluate(() => {
      const el = document.querySelector('humanlike-check')!;
      const area = document.querySelector('textarea')!.getBoundingClientRect();
      return [...el.shadowRoot!.querySelectorAll('mark')].map((m) => {
        const r = m.getBoundingClientRect();
        return {
          text: m.textContent,
          start: Number((m as HTMLElement).dataset.start),
          end: Number((m as HTMLElement).dataset.end),
          code: (m as HTMLElement).dataset.code,
          inside: r.left >= area.left && r.right <= area.right && r.top >= area.top && r.bottom <= area.bottom && r.width > 0,
        };
      });
    });
    const boilerplate = marks.filter((m) => m.code === 'assistant-boilerplate');
    expect(boilerplate.map((m) => m.text)).to.deep.equal(['Great question', 'I hope this helps']);
    for (const m of marks) {
      expect(text.slice(m.start, m.end), m.code).to.equal(m.text);
      expect(m.inside, m.code).to.equal(true);
    }
    expect(boilerplate[0].start).to.equal(text.indexOf('Great'));

    // Each fix is a button reached with Tab from the textarea, labelled with its place and fix.
    await page.locator('textarea').focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = document.querySelector('humanlike-check')!.shadowRoot!.activeElement;
      return active ? { tag: active.tagName, label: active.getAttribute('aria-label') } : undefined;
    });
    expect(focused?.tag).to.equal('BUTTON');
    expect(focused?.label).to.match(/at characters \d+ to \d+, (high|medium|low) severity\. Fix: /);
    await page.keyboard.press('Enter');
    const selected = await page.evaluate(() => {
      const t = document.querySelector('textarea')!;
      return t.value.slice(t.selectionStart, t.selectionEnd);
    });
    expect(selected).to.equal(marks.slice().sort((a, b) => a.start - b.start)[0].text);

    // The page never sent the bundle token, and its checks went only to the host.
    await until(() => requests.length >= 3, 5_000, 'recorded requests');
    expect(requests.length).to.be.greaterThan(2);
    for (const r of requests) {
      expect(JSON.stringify(r.headers)).to.not.include(token);
      expect(r.body).to.not.include(token);
      expect(r.url).to.not.include(token);
      if (r.url.includes('/check')) expect(r.url.startsWith(`${hostUrl}/`), r.url).to.equal(true);
    }
    expect(hostSeen.length).to.be.greaterThan(0);
    expect(hostSeen.every((h) => h.headers['x-bundle-token'] === undefined)).to.equal(true);
    await page.close();
  });

  it('throws away an answer that came back for text that has changed since', async function () {
    const { page, problems } = await openPage();
    const results: string[] = [];
    await page.exposeFunction('recordResult', (codes: string) => results.push(codes));
    await page.evaluate(() =>
      document.querySelector('humanlike-check')!.addEventListener('humanlike-check:result', (e) =>
        (window as unknown as { recordResult(c: string): void }).recordResult((e as CustomEvent<{ issues: Array<{ code: string }> }>).detail.issues.map((i) => i.code).join(',')),
      ),
    );
    let release!: () => void;
    holdChecks = new Promise<void>((resolve) => (release = resolve));
    const area = page.locator('textarea');
    await area.fill('Great question! I hope this helps!');
    await page.clock.runFor(800);
    await until(() => hostSeen.length > 0 && holdChecks !== undefined, 5_000, 'the held check');
    // The person keeps typing while the first check is out; then its answer arrives.
    await area.fill('ok, 6 works');
    holdChecks = undefined;
    release();
    await answered(page, 1);
    expect((await checks(page))[0].status).to.equal(200);
    // Its boilerplate marks belong to text that is gone: nothing drawn, no result announced.
    expect(await markedCodes(page)).to.deep.equal([]);
    expect(results).to.deep.equal([]);
    // The new text gets its own check, with a new key.
    await page.clock.runFor(2_000);
    await answered(page, 2);
    const [first, second] = await checks(page);
    expect(second.draft).to.equal('ok, 6 works');
    expect(second.key).to.not.equal(first.key);
    await until(() => results.length === 1, 5_000, 'the second result');
    expect(results[0]).to.not.contain('assistant-boilerplate');
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('checks in contextual mode with the situation the page gives, and marks what the evaluator found', async function () {
    const { page, problems } = await openPage('/contextual');
    const before = await creditsLeft();
    const draft = 'We will refund you today, guaranteed.';
    const start = draft.indexOf('guaranteed');
    chat.calls.length = 0;
    chat.content = JSON.stringify({ issues: [{ code: 'overpromise', start, end: start + 'guaranteed'.length }] });
    await page.locator('textarea').fill(draft);
    await page.clock.runFor(800);
    await answered(page, 1);
    expect((await checks(page))[0].status).to.equal(200);
    await page.waitForFunction(() => (document.querySelector('humanlike-check')?.shadowRoot?.querySelectorAll('mark').length ?? 0) > 0);
    expect(await markedCodes(page)).to.include('overpromise');
    // The situation reached the evaluator through the host; the draft went once, the token never.
    expect(chat.calls).to.have.length(1);
    expect(JSON.stringify(chat.calls[0].body)).to.contain('A customer asks about a delayed refund.');
    expect(JSON.stringify(chat.calls[0].body)).to.not.contain(token);
    expect(await creditsLeft()).to.equal(before - 1);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

});
