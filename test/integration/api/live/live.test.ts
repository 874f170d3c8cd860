import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function inline(page: string, tag: 'script' | 'style'): string {
  const match = new RegExp(`<${tag}>([^]*?)</${tag}>`).exec(page);
  expect(match, tag).to.not.equal(null);
  return match![1];
}

describe('GET / and /live', function () {
  this.timeout(60_000);
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('live', { worker: false });
  });
  after(async function () {
    await stack?.close();
  });

  for (const path of ['/', '/live']) {
    it(`${path} serves the page under a CSP that allows exactly its inline script and style`, async function () {
      const res = await stack.http.get(path).set('Accept', HTML);
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('text/html');
      const csp = String(res.headers['content-security-policy']);
      const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
      expect(csp).to.include("default-src 'none'");
      expect(csp).to.include(`script-src ${hash(inline(res.text, 'script'))}`);
      expect(csp).to.include(`style-src ${hash(inline(res.text, 'style'))}`);
      expect(csp).to.include("connect-src 'self'");
      expect(csp).to.not.include('unsafe-inline');
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      // No external asset: every src and href stays on this origin (or is inline data).
      expect(res.text).to.not.match(/(src|href)="(https?:)?\/\//);
      expect(res.text).to.include('new EventSource(\'/api/feed');
    });
  }

  it('answers / with a JSON index when JSON is asked for', async function () {
    const res = await stack.http.get('/').set('Accept', 'application/json');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ live_page: '/live', openapi: '/api/openapi.json', feed: '/api/feed' });
    expect(res.headers.vary).to.match(/accept/i);
  });
});
