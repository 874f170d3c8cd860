import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Response } from 'superagent';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { getAddress } from 'viem';
import { simulateBody } from '../../../fixtures/builders';
import { LLM_STYLE_REPLIES } from '../../../fixtures/llm-style-replies';
import { shareMeta } from '../../../helpers/html-meta';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;
const BASIC = 50_000;
const GRIEF = 'grief-support-peer';
const TERSE = 'terse-senior-engineer';
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A settled session this suite made, with everything that must never appear in a public record. */
interface Made {
  wallet: string;
  tx: string;
  resultId: string;
  score: number | null;
  /** Submitted text, signatures, nonces, tokens: anything else the suite put in. */
  secrets: string[];
}

function base58(length: number): string {
  return Array.from(randomBytes(length), (b) => BASE58[b % BASE58.length]).join('');
}

function evmWallet(): string {
  return privateKeyToAccount(generatePrivateKey()).address;
}

/** A supertest parser that keeps any body as text (superagent leaves image/svg+xml unread). */
function asText(res: Response, done: (err: Error | null, body: string) => void): void {
  // In Node, superagent hands a parser the IncomingMessage itself.
  const stream = res as unknown as NodeJS.ReadableStream;
  let data = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (data += chunk));
  stream.on('end', () => done(null, data));
}

/** A supertest parser that keeps any body as bytes. */
function asBytes(res: Response, done: (err: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

function masked(value: string): string {
  return `${value.slice(0, 6)}…${value.slice(-4)}`;
}

/** A wallet as the ledger stores it (EVM lowercase, base58 as is), masked. */
function maskedWallet(m: { wallet: string }): string {
  // EVM wallets are shown checksummed (EIP-55), whatever case the ledger keeps.
  return masked(m.wallet.startsWith('0x') ? getAddress(m.wallet) : m.wallet);
}

describe('public records: leaderboard, results, certificates, scoreboard, stats, proof cards', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let passA: Made; // payer 0: passes grief-support-peer
  let failB: Made; // payer 1: fails grief-support-peer
  let passC: Made; // payer 2: passes terse-senior-engineer
  const fake: Record<'w1best' | 'w1low' | 'w2' | 'w3bundle' | 'w4sol', Made> = {} as never;
  // Other products' rows: their score is no EQ score (a stress test's mean, a script check's
  // adherence, a rewrite's after-score), so no ranking, count or certificate may read it as one.
  const other: Record<'stress' | 'script' | 'rewrite', Made> = {} as never;
  let usdc: { network: string; asset: string };
  const SOL = { network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', asset: 'SOL' };

  async function payFor(account: PrivateKeyAccount, body: Record<string, unknown>): Promise<Made> {
    const signed = await signPayment(account, paid.requirement(BASIC), RESOURCE);
    const res = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const receipt = decodePaymentResponseHeader(res.headers['payment-response'] as string);
    const signature = (signed.payload.payload as { signature: string }).signature;
    return {
      wallet: account.address,
      tx: receipt.transaction,
      resultId: res.body.result_id as string,
      score: res.body.score.eq_score as number,
      secrets: [String(body.proposed_text), signed.header, signature, signed.nonce, String(res.body.referral_code)],
    };
  }

  // A ledger row written directly (with the authorization it references): for volume and for
  // times in the past, where a real payment adds nothing. The suite's times sit just past each
  // window (26 hours, 8 days, 31 days), so a wrong window shows in the counts.
  async function insertSession(row: {
    wallet: string;
    product: string;
    tier: string | null;
    profile: string | null;
    score: number | null;
    passed: boolean | null;
    rail: 'exact-evm' | 'sol-transfer';
    network: string;
    asset: string;
    amount: number;
    ago: string;
  }): Promise<Made> {
    const tx = row.rail === 'exact-evm' ? `0x${randomBytes(32).toString('hex')}` : base58(88);
    const payer = row.rail === 'exact-evm' ? row.wallet.toLowerCase() : row.wallet;
    const resultId = randomUUID();
    const requestHash = randomBytes(32).toString('hex');
    const nonce = `0x${randomBytes(32).toString('hex')}`;
    const ds = paid.stack.deps.dataSource;
    const [auth] = (await ds.query(
      `INSERT INTO payment_authorizations
         (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, payment,
          status, transaction, settled_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 2, $6, $7, $8, $9, $10, $11, '{}', 'settled', $12, now() - $13::interval, now() - $13::interval)
       RETURNING id`,
      [row.rail, row.network, row.asset, payer, nonce, RESOURCE, row.product, row.tier, row.amount, requestHash, resultId, tx, row.ago],
    )) as Array<{ id: string }>;
    await ds.query(
      `INSERT INTO ledger_sessions
         (authorization_id, product, tier, profile, score, passed, result_id, network, asset, amount, transaction, payer, request_hash,
          created_at, settled_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now() - $14::interval, now() - $14::interval)`,
      [auth.id, row.product, row.tier, row.profile, row.score, row.passed, resultId, row.network, row.asset, row.amount, tx, payer, requestHash, row.ago],
    );
    return { wallet: row.wallet, tx, resultId, score: row.score, secrets: [requestHash, nonce] };
  }

  before(async function () {
    paid = await startPaidStack('records');
    await paid.stack.truncate();
    // The ledger keeps EVM assets lowercase, as the payment pipeline writes them.
    usdc = { network: paid.facilitator.network, asset: paid.facilitator.asset.toLowerCase() };
    passA = await payFor(paid.payers[0], simulateBody(paid.payers[0].address));
    failB = await payFor(paid.payers[1], simulateBody(paid.payers[1].address, { proposed_text: LLM_STYLE_REPLIES['empathetic-counselor'] }));
    passC = await payFor(
      paid.payers[2],
      simulateBody(paid.payers[2].address, { target_profile: TERSE, proposed_text: 'DATABASE_URL. Set it in the CI secrets, then rerun the job.', response_delay_seconds: 12 }),
    );
    const w1 = evmWallet();
    const evm = { rail: 'exact-evm' as const, ...usdc, product: 'simulate' };
    fake.w1best = await insertSession({ ...evm, wallet: w1, tier: 'basic', profile: TERSE, score: 91, passed: true, amount: BASIC, ago: '1 hour' });
    fake.w1low = await insertSession({ ...evm, wallet: w1, tier: 'basic', profile: GRIEF, score: 70, passed: false, amount: BASIC, ago: '26 hours' });
    fake.w2 = await insertSession({ ...evm, wallet: evmWallet(), tier: 'deep', profile: GRIEF, score: 99.5, passed: true, amount: 180_000, ago: '8 days' });
    fake.w3bundle = await insertSession({ ...evm, wallet: evmWallet(), product: 'bundle', tier: 'starter', profile: null, score: null, passed: null, amount: 5_000_000, ago: '2 hours' });
    const analysis = { ...evm, tier: null, amount: 180_000, ago: '3 hours' };
    other.stress = await insertSession({ ...analysis, wallet: evmWallet(), product: 'stress-test', profile: GRIEF, score: 17.1, passed: false });
    other.script = await insertSession({ ...analysis, wallet: evmWallet(), product: 'script-check', profile: null, score: 75, passed: null });
    other.rewrite = await insertSession({ ...analysis, wallet: evmWallet(), product: 'rewrite', profile: TERSE, score: 99.9, passed: true });
    fake.w4sol = await insertSession({
      rail: 'sol-transfer',
      ...SOL,
      wallet: base58(44),
      product: 'simulate',
      tier: 'basic',
      profile: GRIEF,
      score: 60,
      passed: false,
      amount: 270_000,
      ago: '31 days',
    });
  });
  after(async function () {
    await paid?.close();
  });

  it('made the sessions it expects (a pass and a fail on grief-support-peer, a pass on terse-senior-engineer)', function () {
    expect(passA.score).to.be.greaterThan(failB.score!);
    expect(passC.score).to.be.greaterThan(passA.score!);
    expect(passC.score).to.be.lessThan(99.5);
    expect(passA.score).to.be.within(70, 91);
  });

  describe('GET /api/leaderboard', function () {
    it('ranks one row per wallet by its best score, truncates wallets, and leaves out every row that is no scored session', async function () {
      const res = await paid.stack.http.get('/api/leaderboard');
      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.equal('public, max-age=10');
      expect(res.body).to.include({ limit: 20, profile: null, cache_seconds: 10 });
      const rows = res.body.entries as Array<Record<string, unknown>>;
      expect(rows.map((r) => r.wallet)).to.deep.equal([fake.w2, passC, fake.w1best, passA, fake.w4sol, failB].map(maskedWallet));
      expect(rows.map((r) => r.best_score)).to.deep.equal([99.5, passC.score, 91, passA.score, 60, failB.score]);
      expect(rows.map((r) => r.rank)).to.deep.equal([1, 2, 3, 4, 5, 6]);
      expect(rows.map((r) => r.result_id)).to.deep.equal([fake.w2, passC, fake.w1best, passA, fake.w4sol, failB].map((m) => m.resultId));
      expect(rows[1]).to.include({ passed: true, tier: 'basic' });
      expect(rows[1].profile).to.have.property('id', TERSE);
      expect((rows[1].profile as { name: string }).name).to.be.a('string').and.not.equal(TERSE);
      expect(rows[0].wallet, 'checksummed, as on certificates').to.match(/^0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}$/).and.equal(maskedWallet(fake.w2));
      expect(rows[4].wallet).to.have.length(11);
    });

    it('returns at most limit rows', async function () {
      const res = await paid.stack.http.get('/api/leaderboard?limit=2');
      expect(res.status).to.equal(200);
      expect(res.body.limit).to.equal(2);
      expect(res.body.entries.map((r: { result_id: string }) => r.result_id)).to.deep.equal([fake.w2.resultId, passC.resultId]);
    });

    it('ranks by the best score on one profile when profile is given', async function () {
      const res = await paid.stack.http.get(`/api/leaderboard?profile=${GRIEF}`);
      expect(res.status).to.equal(200);
      expect(res.body.profile).to.equal(GRIEF);
      expect(res.body.entries.map((r: { best_score: number }) => r.best_score)).to.deep.equal([99.5, passA.score, 70, 60, failB.score]);
      expect(res.body.entries[2].result_id).to.equal(fake.w1low.resultId);
    });

    for (const [query, path] of [
      ['limit=0', '/limit'],
      ['limit=101', '/limit'],
      ['limit=abc', '/limit'],
      ['limit=2.5', '/limit'],
      ['profile=no-such-profile', '/profile'],
    ]) {
      it(`answers 422 for ${query}`, async function () {
        const res = await paid.stack.http.get(`/api/leaderboard?${query}`);
        expect(res.status).to.equal(422);
        expect(res.body.error.code).to.equal('validation_failed');
        expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.deep.equal([path]);
      });
    }
  });

  describe('GET /api/results/{result_id}', function () {
    it('shows a passed and a failed session, privacy-safe', async function () {
      const pass = await paid.stack.http.get(`/api/results/${passA.resultId}`);
      expect(pass.status).to.equal(200);
      expect(pass.body).to.have.all.keys('result_id', 'product', 'kind', 'label', 'tier', 'profile', 'eq_score', 'passed', 'network', 'wallet', 'settled_at');
      expect(pass.body).to.deep.include({ result_id: passA.resultId, product: 'simulate', kind: 'scored_session', label: 'Scored session', tier: 'basic', eq_score: passA.score, passed: true, network: usdc.network });
      expect(pass.body.wallet).to.equal(maskedWallet(passA));
      expect(pass.body.profile.id).to.equal(GRIEF);
      const fail = await paid.stack.http.get(`/api/results/${failB.resultId}`);
      expect(fail.status).to.equal(200);
      expect(fail.body).to.deep.include({ result_id: failB.resultId, eq_score: failB.score, passed: false });
    });

    it('shows another product as what it is, with no EQ score or verdict', async function () {
      const cases: Array<[Made, string, string]> = [
        [other.stress, 'analysis', 'Stress test'],
        [other.script, 'analysis', 'Script check'],
        [other.rewrite, 'analysis', 'Rewrite'],
        [fake.w3bundle, 'purchase', 'Bundle purchase'],
      ];
      for (const [made, kind, label] of cases) {
        const res = await paid.stack.http.get(`/api/results/${made.resultId}`);
        expect(res.status, label).to.equal(200);
        expect(res.body, label).to.deep.include({ kind, label, eq_score: null, passed: null });
      }
    });

    it('serves a page when text/html is asked for, and JSON to every other Accept', async function () {
      const page = await paid.stack.http.get(`/api/results/${passA.resultId}`).set('Accept', HTML);
      expect(page.status).to.equal(200);
      expect(page.type).to.equal('text/html');
      expect(page.headers.vary).to.match(/accept/i);
      expect(page.text).to.include('<h1>Scored session: ').and.include(`<div class="score" aria-label="EQ score">${passA.score!.toFixed(1)}</div>`);
      expect(page.text).to.include(`<dd>${maskedWallet(passA)}</dd>`).and.include('data-verdict="passed"');
      expect(page.text).to.not.include(passA.tx).and.not.include(passA.wallet).and.not.include(passA.wallet.toLowerCase());
      const script = await paid.stack.http.get(`/api/results/${other.script.resultId}`).set('Accept', HTML);
      expect(script.text).to.include('A script check is not scored against a profile, so it has no EQ score or verdict.').and.not.include('class="score"');
      for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
        const req = paid.stack.http.get(`/api/results/${passA.resultId}`);
        const res = await (accept ? req.set('Accept', accept) : req);
        expect(res.type, String(accept)).to.equal('application/json');
      }
      const missing = await paid.stack.http.get(`/api/results/${randomUUID()}`).set('Accept', HTML);
      expect(missing.status).to.equal(404);
    });

    it('answers 404 for an unknown id and for one that is no UUID', async function () {
      for (const id of [randomUUID(), 'not-a-uuid', `${passA.resultId}x`]) {
        const res = await paid.stack.http.get(`/api/results/${id}`);
        expect(res.status, id).to.equal(404);
        expect(res.body.error.code).to.equal('result_not_found');
      }
    });
  });

  describe('GET /api/certificate/{tx_hash}', function () {
    it('gives JSON by default for a passed session', async function () {
      const res = await paid.stack.http.get(`/api/certificate/${passA.tx}`);
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('application/json');
      const url = `${PUBLIC_BASE_URL}/api/certificate/${passA.tx}`;
      expect(res.body.certificate).to.deep.include({
        url,
        image_url: `${url}/image.png`,
        svg_image_url: `${url}/image.svg`,
        result_url: `${PUBLIC_BASE_URL}/api/results/${passA.resultId}`,
      });
      expect(res.body.certificate.title).to.include(res.body.session.profile.name);
      expect(res.body.session).to.deep.include({ result_id: passA.resultId, passed: true, eq_score: passA.score, wallet: maskedWallet(passA) });
    });

    it('finds an EVM hash typed in upper case', async function () {
      const res = await paid.stack.http.get(`/api/certificate/0x${passC.tx.slice(2).toUpperCase()}`);
      expect(res.status).to.equal(200);
      expect(res.body.session.result_id).to.equal(passC.resultId);
      expect(res.body.certificate.url).to.equal(`${PUBLIC_BASE_URL}/api/certificate/${passC.tx}`);
    });

    it('serves a page with Open Graph and Twitter card tags when text/html is asked for', async function () {
      const res = await paid.stack.http.get(`/api/certificate/${passA.tx}`).set('Accept', HTML);
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('text/html');
      expect(res.headers.vary).to.match(/accept/i);
      const meta = shareMeta(res.text);
      const json = (await paid.stack.http.get(`/api/certificate/${passA.tx}`)).body.certificate;
      expect(meta).to.include({
        'og:title': json.title,
        'og:description': json.description,
        'og:url': `${PUBLIC_BASE_URL}/api/certificate/${passA.tx}`,
        'og:image': `${PUBLIC_BASE_URL}/api/certificate/${passA.tx}/image.png`,
        'og:image:type': 'image/png',
        'og:image:width': '1200',
        'og:image:height': '630',
        'twitter:card': 'summary_large_image',
        'twitter:image': `${PUBLIC_BASE_URL}/api/certificate/${passA.tx}/image.png`,
        viewport: 'width=device-width, initial-scale=1',
      });
      expect(meta['og:description']).to.include(maskedWallet(passA));
      expect(res.text).to.include(passA.score!.toFixed(1));
    });

    it('serves the share image as SVG', async function () {
      const res = await paid.stack.http.get(`/api/certificate/${passA.tx}/image.svg`).buffer(true).parse(asText);
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('image/svg+xml');
      expect(res.body as string).to.match(/^<\?xml[^]*<svg [^>]*width="1200" height="630"/);
      expect(res.body as string).to.include(passA.score!.toFixed(1));
    });

    it('serves the share image as a 1200 x 630 PNG, the same bytes for any letter case of the hash', async function () {
      const first = await paid.stack.http.get(`/api/certificate/${passA.tx}/image.png`).buffer(true).parse(asBytes);
      expect(first.status).to.equal(200);
      expect(first.type).to.equal('image/png');
      expect(first.headers['cache-control']).to.equal('public, max-age=3600');
      const png = first.body as Buffer;
      // The PNG signature, then the IHDR chunk: width and height as big-endian 32-bit integers.
      expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
      expect(png.subarray(12, 16).toString('latin1')).to.equal('IHDR');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).to.deep.equal([1200, 630]);
      // A real drawing, not an empty canvas (the blank background alone compresses to a few kB).
      expect(png.length).to.be.greaterThan(8_000);
      const again = await paid.stack.http.get(`/api/certificate/${passA.tx.toUpperCase().replace('0X', '0x')}/image.png`).buffer(true).parse(asBytes);
      expect(Buffer.compare(again.body as Buffer, png)).to.equal(0);
    });

    it('answers 404 for a failed session, an unscored purchase, a passed rewrite, an unknown hash and a malformed one, in JSON and HTML', async function () {
      const hashes = [failB.tx, fake.w3bundle.tx, other.rewrite.tx, fake.w4sol.tx, `0x${randomBytes(32).toString('hex')}`, 'nope'];
      for (const hash of hashes) {
        for (const accept of ['application/json', HTML]) {
          const res = await paid.stack.http.get(`/api/certificate/${hash}`).set('Accept', accept);
          expect(res.status, `${hash} ${accept}`).to.equal(404);
          expect(res.body.error.code).to.equal('certificate_not_found');
        }
        expect((await paid.stack.http.get(`/api/certificate/${hash}/image.svg`)).status).to.equal(404);
        expect((await paid.stack.http.get(`/api/certificate/${hash}/image.png`)).status).to.equal(404);
      }
    });
  });

  describe('GET /api/scoreboard', function () {
    it('gives the totals, the best of each profile and the recent passes as JSON', async function () {
      const res = await paid.stack.http.get('/api/scoreboard');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ sessions: 11, scored_sessions: 7, passed_sessions: 4, pass_rate: 0.5714 });
      // No row without a profile, and the stress test's 17.1 and the rewrite's 99.9 count nowhere.
      expect(res.body.profiles.map((p: { profile: { id: string } | null }) => p.profile?.id ?? null)).to.deep.equal([GRIEF, TERSE]);
      expect(res.body.profiles[0]).to.include({ best_score: 99.5, sessions: 5, passed: 2 });
      expect(res.body.profiles[1]).to.include({ best_score: passC.score, sessions: 2, passed: 2 });
      // Sessions per ten-point band: the scored sessions of each profile, nothing else.
      const bands = (scores: number[]) => scores.reduce((acc, v) => (acc[Math.min(9, Math.floor(v / 10))]++, acc), Array<number>(10).fill(0));
      expect(res.body.profiles[0].score_distribution).to.deep.equal(bands([passA.score!, failB.score!, fake.w1low.score!, fake.w2.score!, fake.w4sol.score!]));
      expect(res.body.profiles[1].score_distribution).to.deep.equal(bands([passC.score!, fake.w1best.score!]));
      expect(res.body.recent_passes.map((s: { result_id: string }) => s.result_id)).to.deep.equal(
        [passC, passA, fake.w1best, fake.w2].map((m) => m.resultId),
      );
      expect(res.body.recent_passes[0].wallet).to.equal(maskedWallet(passC));
    });

    it('gives a phone-sized HTML page when text/html is asked for', async function () {
      const res = await paid.stack.http.get('/api/scoreboard').set('Accept', HTML);
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('text/html');
      expect(shareMeta(res.text).viewport).to.equal('width=device-width, initial-scale=1');
      expect(res.text).to.include('<h1>Scoreboard</h1>');
      expect(res.text).to.include('57.1%');
      expect(res.text).to.include(maskedWallet(passC));
      expect(res.text).to.include(`/api/results/${passA.resultId}`);
      expect(res.text.match(/<svg class="histogram"/g), 'one distribution per profile').to.have.length(2);
      expect(res.text).to.include('<title>EQ scores of Terse senior engineer, sessions per band: 0-9: 0, ');
    });
  });

  describe('GET /api/stats', function () {
    it('counts sessions, volume per asset, the pass rate and active wallets over windows', async function () {
      const res = await paid.stack.http.get('/api/stats');
      expect(res.status).to.equal(200);
      expect(res.body.sessions).to.deep.equal({ total: 11, last_24h: 8, last_7d: 9, last_30d: 10 });
      expect(res.body).to.include({ scored_sessions: 7, passed_sessions: 4, pass_rate: 0.5714 });
      expect(res.body.active_wallets).to.deep.equal({ last_24h: 8, last_7d: 8, last_30d: 9 });
      const volume = [
        { ...usdc, amount: String(3 * BASIC + 2 * BASIC + 180_000 + 5_000_000 + 3 * 180_000), sessions: 10 },
        { ...SOL, amount: '270000', sessions: 1 },
      ].sort((a, b) => (a.network < b.network ? -1 : 1));
      expect(res.body.volume).to.deep.equal(volume);
      expect(res.body.queue.scoring).to.have.all.keys('waiting', 'active', 'delayed', 'failed');
      expect(res.body.queue.scoring.waiting).to.equal(0);
    });
  });

  describe('privacy', function () {
    it('never shows a full wallet, another session’s transaction, a token or submitted text in any public response', async function () {
      const made = [passA, failB, passC, ...Object.values(fake), ...Object.values(other)];
      expect(made).to.have.length(11);
      const http = paid.stack.http;
      // A community reviewer's comment and session secret: stored, never public.
      const review = await http.post('/api/community-review/sessions').send({ consent: true, sample_count: 2 });
      expect(review.status).to.equal(201);
      const comment = `reviewer-note-${randomBytes(8).toString('hex')}`;
      const rated = await http
        .post(`/api/community-review/sessions/${review.body.session_id}/responses`)
        .send({ session_secret: review.body.session_secret, responses: [{ sample_id: review.body.samples[0].sample_id, ratings: { human_likeness: 4 }, comment }] });
      expect(rated.status).to.equal(200);
      const responses: Array<{ label: string; text: string; own?: string }> = [];
      const add = async (path: string, accept = 'application/json', own?: string) => {
        const res = await http.get(path).set('Accept', accept).buffer(true).parse(asText);
        responses.push({ label: `${path} (${accept})`, text: res.body as string, own });
      };
      for (const q of ['', '?limit=2', `?profile=${GRIEF}`, `?profile=${TERSE}&limit=100`, '?limit=0']) await add(`/api/leaderboard${q}`);
      for (const m of made) await add(`/api/results/${m.resultId}`);
      for (const m of made) await add(`/api/results/${m.resultId}`, HTML);
      for (const m of made) {
        await add(`/api/certificate/${m.tx}`, 'application/json', m.tx);
        await add(`/api/certificate/${m.tx}`, HTML, m.tx);
        await add(`/api/certificate/${m.tx}/image.svg`, '*/*', m.tx);
        await add(`/api/certificate/${m.tx}/image.png`, '*/*', m.tx);
      }
      await add('/api/scoreboard');
      await add('/api/scoreboard', HTML);
      await add('/api/stats');
      // Proof cards: the list, then every card as JSON and as Markdown.
      await add('/api/proof-cards');
      const slugs = (JSON.parse(responses[responses.length - 1].text) as { cards: Array<{ id: string }> }).cards.map((c) => c.id);
      expect(slugs.length).to.be.at.least(7);
      for (const slug of slugs) {
        await add(`/api/proof-cards/${slug}`);
        await add(`/api/proof-cards/${slug}?format=markdown`, 'text/markdown');
        await add(`/api/proof-cards/${slug}?format=html`, HTML);
      }
      await add('/api/community-review/sessions');
      await add(`/api/community-review/sessions/${review.body.session_id}`);
      await add('/api/community-review/summary');
      await add('/', HTML);
      await add('/live', HTML);
      expect(responses).to.have.length(5 + 2 * 11 + 4 * 11 + 3 + 3 + 2 + 1 + 3 * slugs.length);
      expect(responses.filter((r) => !(r.text?.length > 0)).map((r) => r.label)).to.deep.equal([]);

      const forbidden = [
        ...made.flatMap((m) => [
          { what: 'wallet', value: m.wallet },
          { what: 'transaction', value: m.tx },
          ...m.secrets.map((value) => ({ what: 'secret', value })),
        ]),
        { what: 'review comment', value: comment },
        { what: 'review secret', value: review.body.session_secret as string },
      ];
      expect(forbidden.length).to.be.greaterThan(8 * 2 + 3 * 5 + 2);
      const leaks: string[] = [];
      for (const r of responses) {
        const text = r.text.toLowerCase();
        for (const f of forbidden) {
          if (f.value === r.own) continue;
          if (text.includes(f.value.toLowerCase())) leaks.push(`${r.label}: ${f.what} ${f.value.slice(0, 12)}…`);
        }
      }
      expect(leaks).to.deep.equal([]);
      // The scan itself can see a leak: the certificate pages do hold their own hash.
      const own = responses.filter((r) => r.own !== undefined && r.text.toLowerCase().includes(r.own.toLowerCase()));
      // Passes A, C, w1 and w2 have certificates: their JSON and HTML hold their own hash.
      expect(own.length).to.equal(4 * 2);
    });
  });

  // Last: it adds a new best score.
  describe('the leaderboard cache', function () {
    it('shows a new best score within the cache time, not before it was cached', async function () {
      const first = await paid.stack.http.get('/api/leaderboard?limit=7');
      const cachedAt = Date.now();
      expect(first.body.entries[0].best_score).to.equal(99.5);
      const newcomer = await insertSession({
        rail: 'exact-evm',
        ...usdc,
        wallet: evmWallet(),
        product: 'simulate',
        tier: 'basic',
        profile: TERSE,
        score: 100,
        passed: true,
        amount: BASIC,
        ago: '0 seconds',
      });
      const cached = await paid.stack.http.get('/api/leaderboard?limit=7');
      expect(cached.body.entries[0].best_score).to.equal(99.5);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, cachedAt + 10_050 - Date.now())));
      const fresh = await paid.stack.http.get('/api/leaderboard?limit=7');
      expect(fresh.body.entries[0]).to.include({ best_score: 100, result_id: newcomer.resultId });
    });
  });
});
