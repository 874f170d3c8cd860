import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { PrivateKeyAccount } from 'viem/accounts';
import { coachingClaimMessage } from '../../../../api/coaching/coaching-claim';
import { findPack, type Drill, type Pack } from '../../../../shared/coaching/packs';
import { scoreText } from '../../../../shared/scoring';
import { EXEMPLARS } from '../../../fixtures/profile-exemplars';
import { shareMeta } from '../../../helpers/html-meta';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { startTestStack } from '../../../helpers/stack';
import { signPayment } from '../../../helpers/x402-payments';

const PATH = '/api/coaching';
const RESOURCE = `${PUBLIC_BASE_URL}${PATH}`;
const PRICE = 540_000;
const SECRET = 'X-COACHING-SECRET';
const REPLY = 'DATABASE_URL. Set it in the CI secrets, then rerun the job.';

// What the engine gives a reply on a drill (the worker runs the same engine).
function engineScore(drill: Drill, text: string, delay: number): number {
  return scoreText({ text, incoming: drill.situation, profile: drill.target_profile, delaySeconds: delay }).result!.eq_score;
}

// The first delay (0.5 s steps) whose score the predicate accepts.
function delayWhere(drill: Drill, text: string, accept: (score: number) => boolean): number {
  for (let d = 0; d <= 120; d += 0.5) if (accept(engineScore(drill, text, d))) return d;
  throw new Error(`no delay gives an accepted score on ${drill.id}`);
}

// The delay (0.5 s steps) at which the engine scores a reply highest on a drill.
function bestDelay(drill: Drill, text: string): number {
  let best = 0;
  for (let d = 0; d <= 120; d += 0.5) if (engineScore(drill, text, d) > engineScore(drill, text, best)) best = d;
  return best;
}

describe('coaching (real stack: x402 on the development chain, scoring queue and worker, PostgreSQL)', function () {
  this.timeout(120_000);
  let paid: PaidStack;
  let payer: PrivateKeyAccount;

  before(async function () {
    paid = await startPaidStack('coaching');
    payer = paid.payers[0];
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  async function enroll(packId: string, account: PrivateKeyAccount = payer) {
    const signed = await signPayment(account, paid.requirement(PRICE), RESOURCE);
    return paid.stack.http.post(PATH).set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: account.address, pack_id: packId });
  }

  const drill = (secret: string, body: Record<string, unknown>) => paid.stack.http.post('/api/coaching/drill').set(SECRET, secret).send(body);
  const progress = (id: string, secret: string) => paid.stack.http.get(`/api/coaching/${id}`).set(SECRET, secret);
  const attemptsLeft = async (id: string) =>
    ((await paid.stack.deps.dataSource.query(`SELECT attempts_left FROM coaching_enrollments WHERE id = $1`, [id])) as Array<{ attempts_left: number }>)[0].attempts_left;

  describe('the catalog', function () {
    it('lists packs of drills, each with a situation, one of the 28 profiles and a bar, and an average bar above the mean drill bar', async function () {
      const res = await paid.stack.http.get('/api/coaching/packs');
      expect(res.status).to.equal(200);
      expect(res.body.attempts_included).to.equal(18);
      expect(res.body.packs).to.have.length.of.at.least(2);
      const profiles = ((await paid.stack.http.get('/api/profiles')).body.profiles as Array<{ id: string }>).map((p) => p.id);
      for (const pack of res.body.packs) {
        expect(pack.drills).to.have.length.of.at.least(2);
        for (const d of pack.drills) {
          expect(d.situation).to.be.a('string').and.not.equal('');
          expect(profiles).to.include(d.target_profile);
          expect(d.bar).to.be.within(1, 100);
        }
        expect(pack.average_bar).to.be.above(pack.mean_drill_bar);
      }
    });
  });

  describe('enrollment', function () {
    it('charges exactly the price and returns the pack, 18 attempts and a secret stored only as a hash', async function () {
      const treasury = paid.facilitator.treasury;
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const quote = await paid.stack.http.post(PATH).send({ wallet_address: payer.address, pack_id: 'straight-talk' });
      expect(quote.status).to.equal(402);
      expect(quote.body.accepts[0]).to.include({ amount: String(PRICE) });

      const res = await enroll('straight-talk');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ pack_id: 'straight-talk', attempts: 18, attempts_left: 18 });
      expect(res.body.secret).to.match(/^hlc_[A-Za-z0-9_-]{43}$/);
      expect(res.headers['payment-response']).to.be.a('string');
      expect(await paid.balanceOf(payer.address)).to.equal(before.payer - BigInt(PRICE));
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BigInt(PRICE));

      const rows = (await paid.stack.deps.dataSource.query(`SELECT to_jsonb(e)::text AS row, secret_hash FROM coaching_enrollments e`)) as Array<{ row: string; secret_hash: string }>;
      expect(rows).to.have.length(1);
      expect(rows[0].secret_hash).to.equal(createHash('sha256').update(res.body.secret).digest('hex'));
      expect(rows[0].row).not.to.include(res.body.secret);
      const stored = (await paid.stack.deps.dataSource.query(`SELECT response::text AS r FROM payment_authorizations`)) as Array<{ r: string }>;
      expect(stored).to.have.length(1);
      expect(stored[0].r).not.to.include(res.body.secret);
    });

    it('gives a replay no secret, and a new one (the old one stops working) only to a replay that carries the payer\'s claim', async function () {
      const body = { wallet_address: payer.address, pack_id: 'straight-talk' };
      const signed = await signPayment(payer, paid.requirement(PRICE), RESOURCE);
      const first = await paid.stack.http.post(PATH).set('PAYMENT-SIGNATURE', signed.header).send(body);
      expect(first.status).to.equal(200);
      const replay = await paid.stack.http.post(PATH).set('PAYMENT-SIGNATURE', signed.header).send(body);
      expect(replay.status).to.equal(200);
      expect(replay.body.secret).to.equal(null);
      const stranger = await paid.stack.http
        .post(PATH)
        .set('PAYMENT-SIGNATURE', signed.header)
        .set('X-COACHING-CLAIM', await paid.payers[1].signMessage({ message: coachingClaimMessage(signed.nonce) }))
        .send(body);
      expect([stranger.status, stranger.body.error.code]).to.deep.equal([401, 'invalid_claim']);
      const garbage = await paid.stack.http.post(PATH).set('PAYMENT-SIGNATURE', signed.header).set('X-COACHING-CLAIM', 'not-a-signature').send(body);
      expect([garbage.status, garbage.body.error.code]).to.deep.equal([401, 'invalid_claim']);
      const claimed = await paid.stack.http
        .post(PATH)
        .set('PAYMENT-SIGNATURE', signed.header)
        .set('X-COACHING-CLAIM', await payer.signMessage({ message: coachingClaimMessage(signed.nonce) }))
        .send(body);
      expect(claimed.status).to.equal(200);
      expect(claimed.body.secret).to.match(/^hlc_/).and.not.equal(first.body.secret);
      expect((await progress(first.body.enrollment_id, first.body.secret)).status).to.equal(401);
      expect((await progress(first.body.enrollment_id, claimed.body.secret)).status).to.equal(200);
      expect(await paid.count('payment_authorizations')).to.equal(1);
    });

    it('gives one of several concurrent claims the new secret and tells the others to wait', async function () {
      const body = { wallet_address: payer.address, pack_id: 'straight-talk' };
      const signed = await signPayment(payer, paid.requirement(PRICE), RESOURCE);
      const first = await paid.stack.http.post(PATH).set('PAYMENT-SIGNATURE', signed.header).send(body);
      expect(first.status).to.equal(200);
      const claim = await payer.signMessage({ message: coachingClaimMessage(signed.nonce) });
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => paid.stack.http.post(PATH).set('PAYMENT-SIGNATURE', signed.header).set('X-COACHING-CLAIM', claim).send(body)),
      );
      const won = answers.filter((a) => a.status === 200);
      expect(won).to.have.length(1);
      expect(won[0].body.secret).to.match(/^hlc_/);
      const waited = answers.filter((a) => a.status === 409);
      expect(waited.map((a) => a.body.error.code)).to.deep.equal(['secret_recently_issued', 'secret_recently_issued', 'secret_recently_issued']);
      for (const a of waited) expect(Number(a.headers['retry-after'])).to.be.within(1, 30);
      expect((await progress(first.body.enrollment_id, won[0].body.secret)).status).to.equal(200);
      expect((await progress(first.body.enrollment_id, first.body.secret)).status).to.equal(401);
    });

    it('refuses a claim that comes with no paid enrollment', async function () {
      const body = { wallet_address: payer.address, pack_id: 'straight-talk' };
      const signed = await signPayment(payer, paid.requirement(PRICE), RESOURCE);
      const before = await paid.balanceOf(payer.address);
      const res = await paid.stack.http
        .post(PATH)
        .set('PAYMENT-SIGNATURE', signed.header)
        .set('X-COACHING-CLAIM', await payer.signMessage({ message: coachingClaimMessage(signed.nonce) }))
        .send(body);
      expect([res.status, res.body.error.code]).to.deep.equal([422, 'claim_without_enrollment']);
      expect(await paid.balanceOf(payer.address)).to.equal(before);
    });

    it('refuses an unknown pack with a 422 before any payment: nothing charged, nothing recorded', async function () {
      const before = await paid.balanceOf(payer.address);
      const res = await enroll('no-such-pack');
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('validation_failed');
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).to.deep.equal(['/pack_id']);
      expect(await paid.balanceOf(payer.address)).to.equal(before);
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });
  });

  describe('drills', function () {
    let enrollment: { enrollment_id: string; secret: string };
    beforeEach(async function () {
      const res = await enroll('straight-talk');
      expect(res.status).to.equal(200);
      enrollment = res.body;
    });

    it('scores an attempt against the drill profile with prompt-level fixes, and counts it', async function () {
      const text = 'Certainly! The staging box ran out of disk on Tuesday. I hope this helps. Let me know if you have any other questions.';
      const res = await drill(enrollment.secret, { drill_id: 'straight-talk/1', proposed_text: text, response_delay_seconds: 20 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const pack = findPack('straight-talk')!;
      const expected = engineScore(pack.drills[0], text, 20);
      expect(res.body.score.eq_score).to.equal(expected);
      expect(res.body.cleared_bar).to.equal(expected >= pack.drills[0].bar);
      expect(res.body.fixes.suggested_prompt_addition).to.be.a('string').and.not.equal('');
      expect(res.body.fixes.improvement).to.be.a('string').and.not.equal('');
      expect(res.body.attempts_left).to.equal(17);
      // The fixes may name canned phrases to drop; the reply itself is never echoed.
      expect(JSON.stringify(res.body)).not.to.include('staging box ran out of disk');
      expect(await attemptsLeft(enrollment.enrollment_id)).to.equal(17);
    });

    it('uses no attempt for a refused request: invalid body, drill of another pack, wrong secret', async function () {
      const invalid = await drill(enrollment.secret, { drill_id: 'straight-talk/1', response_delay_seconds: -1 });
      expect(invalid.status).to.equal(422);
      const other = await drill(enrollment.secret, { drill_id: 'warm-replies/1', proposed_text: REPLY, response_delay_seconds: 10 });
      expect(other.status).to.equal(422);
      expect(other.body.error.code).to.equal('drill_not_in_pack');
      const wrong = await drill(`hlc_${'A'.repeat(43)}`, { drill_id: 'straight-talk/1', proposed_text: REPLY, response_delay_seconds: 10 });
      expect(wrong.status).to.equal(401);
      expect(wrong.body.error.code).to.equal('invalid_coaching_secret');
      const missing = await paid.stack.http.post('/api/coaching/drill').send({ drill_id: 'straight-talk/1', proposed_text: REPLY, response_delay_seconds: 10 });
      expect(missing.status).to.equal(401);
      expect(missing.body.error.code).to.equal('coaching_secret_required');
      expect(await attemptsLeft(enrollment.enrollment_id)).to.equal(18);
    });

    it('scores exactly 18 of 20 concurrent drills and refuses 2 with 409 no_attempts_left; attempts never go below 0', async function () {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => drill(enrollment.secret, { drill_id: `straight-talk/${(i % 4) + 1}`, proposed_text: REPLY, response_delay_seconds: 10 + i })),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).to.have.length(18);
      expect(statuses.filter((s) => s === 409)).to.have.length(2);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).to.equal('no_attempts_left');
      const left = results.filter((r) => r.status === 200).map((r) => r.body.attempts_left as number);
      expect([...left].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 18 }, (_, i) => i));
      expect(await attemptsLeft(enrollment.enrollment_id)).to.equal(0);
      const scored = (await paid.stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM coaching_attempts WHERE status = 'scored'`)) as Array<{ n: number }>;
      expect(scored[0].n).to.equal(18);
      const p = await progress(enrollment.enrollment_id, enrollment.secret);
      expect(p.body.attempts_left).to.equal(0);
    });

    it('gives the attempt back when scoring fails (no worker takes the job: 504), so a server fault costs no attempt', async function () {
      // A second web on the same database whose queue no worker serves.
      const idle = await startTestStack('coaching-idle', { worker: false, env: { JOB_WAIT_TIMEOUT_MS: '300' } });
      try {
        const res = await idle.http.post('/api/coaching/drill').set(SECRET, enrollment.secret).send({ drill_id: 'straight-talk/2', proposed_text: REPLY, response_delay_seconds: 10 });
        expect(res.status).to.equal(504);
        expect(res.body.error.code).to.equal('job_timeout');
      } finally {
        await idle.close();
      }
      expect(await attemptsLeft(enrollment.enrollment_id)).to.equal(18);
      const rows = (await paid.stack.deps.dataSource.query(`SELECT status FROM coaching_attempts`)) as Array<{ status: string }>;
      expect(rows.map((r) => r.status)).to.deep.equal(['failed']);
      const again = await drill(enrollment.secret, { drill_id: 'straight-talk/2', proposed_text: REPLY, response_delay_seconds: 10 });
      expect(again.status).to.equal(200);
      expect(again.body.attempts_left).to.equal(17);
    });

    it('shows progress only with the secret: 401 without or with a wrong one, 403 with the secret of another enrollment', async function () {
      const other = await enroll('warm-replies', paid.payers[1]);
      expect(other.status).to.equal(200);
      expect((await progress(enrollment.enrollment_id, `hlc_${'B'.repeat(43)}`)).status).to.equal(401);
      expect((await paid.stack.http.get(`/api/coaching/${enrollment.enrollment_id}`)).status).to.equal(401);
      const cross = await progress(enrollment.enrollment_id, other.body.secret);
      expect(cross.status).to.equal(403);
      expect(cross.body.error.code).to.equal('secret_not_for_enrollment');
      const own = await progress(enrollment.enrollment_id, enrollment.secret);
      expect(own.status).to.equal(200);
      expect(own.body).to.include({ pack_id: 'straight-talk', attempts: 18, attempts_left: 18, complete: false, certificate: null });
      expect(own.body.drills.map((d: { best_score: number | null }) => d.best_score)).to.deep.equal([null, null, null, null]);
    });
  });

  describe('the certificate', function () {
    it('appears only once every drill bar and the average bar are cleared, as a shareable page that shows no secret, wallet or text', async function () {
      const pack: Pack = findPack('warm-replies')!;
      const res = await enroll(pack.id);
      expect(res.status).to.equal(200);
      const { enrollment_id: id, secret } = res.body as { enrollment_id: string; secret: string };
      const textOf = (d: Drill) => EXEMPLARS.find((e) => e.profile === d.target_profile)!.text;
      const attempt = async (d: Drill, delay: number) => {
        const r = await drill(secret, { drill_id: d.id, proposed_text: textOf(d), response_delay_seconds: delay });
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        expect(r.body.score.eq_score).to.equal(engineScore(d, textOf(d), delay));
        return r.body;
      };
      const certificateRows = async () =>
        ((await paid.stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM coaching_enrollments WHERE certificate_id IS NOT NULL`)) as Array<{ n: number }>)[0].n;

      // 1. The last drill fails its bar; the others scrape just past theirs.
      const [last, ...firsts] = [...pack.drills].reverse();
      const fail = await attempt(last, 0);
      expect(fail.cleared_bar).to.equal(false);
      expect(fail.points_to_bar).to.be.above(0);
      for (const d of firsts) {
        const body = await attempt(d, delayWhere(d, textOf(d), (s) => s >= d.bar && s < pack.average_bar));
        expect(body.cleared_bar).to.equal(true);
        expect(body.certificate).to.equal(null);
      }
      expect(await certificateRows()).to.equal(0);

      // 2. Every drill bar cleared, the average bar not: still no certificate.
      const scraped = await attempt(last, delayWhere(last, textOf(last), (s) => s >= last.bar && s < pack.average_bar));
      expect(scraped.progress).to.include({ drills_cleared: pack.drills.length, average_cleared: false, complete: false });
      expect(scraped.certificate).to.equal(null);
      expect(await certificateRows()).to.equal(0);
      expect((await progress(id, secret)).body.certificate).to.equal(null);

      // 3. Raise the drills one by one: the certificate comes with the attempt that lifts the average over its bar.
      let certificate: { certificate_id: string; url: string } | null = null;
      for (const d of pack.drills) {
        // Each exemplar at its best delay scores above the average bar, so raising them lifts the average.
        const delay = bestDelay(d, textOf(d));
        expect(engineScore(d, textOf(d), delay), d.id).to.be.above(pack.average_bar);
        const body = await attempt(d, delay);
        if (!body.progress.average_cleared) {
          expect(body.certificate).to.equal(null);
          continue;
        }
        expect(body.progress.complete).to.equal(true);
        certificate = body.certificate;
        break;
      }
      expect(certificate).to.not.equal(null);
      expect(certificate!.certificate_id).to.match(/^coaching-[0-9a-f-]{36}$/);
      expect(certificate!.url).to.equal(`${PUBLIC_BASE_URL}/api/certificate/${certificate!.certificate_id}`);
      expect(await certificateRows()).to.equal(1);
      expect((await progress(id, secret)).body.certificate).to.deep.equal(certificate);

      const json = await paid.stack.http.get(`/api/certificate/${certificate!.certificate_id}`);
      expect(json.status).to.equal(200);
      expect(json.body.coaching).to.include({ pack_id: pack.id, average_bar: pack.average_bar });
      expect(json.body.coaching.drills).to.have.length(pack.drills.length);
      for (const d of json.body.coaching.drills) expect(d.best_score).to.be.at.least(d.bar);
      expect(json.body.coaching.average_score).to.be.at.least(pack.average_bar);

      const html = await paid.stack.http.get(`/api/certificate/${certificate!.certificate_id}`).set('Accept', 'text/html');
      expect(html.status).to.equal(200);
      expect(html.headers['content-type']).to.match(/^text\/html/);
      const meta = shareMeta(html.text);
      expect(meta['og:url']).to.equal(certificate!.url);
      expect(meta['og:image']).to.equal(`${certificate!.url}/image.png`);
      expect(meta['og:title']).to.include(pack.name);
      expect(meta['twitter:card']).to.equal('summary_large_image');
      const image = await paid.stack.http.get(`/api/certificate/${certificate!.certificate_id}/image.svg`);
      expect(image.status).to.equal(200);
      expect(image.headers['content-type']).to.match(/^image\/svg\+xml/);
      expect(String(image.text ?? image.body)).to.include('<svg');
      const png = await paid.stack.http.get(`/api/certificate/${certificate!.certificate_id}/image.png`).buffer(true);
      expect(png.status).to.equal(200);
      expect(png.headers['content-type']).to.equal('image/png');
      expect((png.body as Buffer).subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');

      for (const page of [JSON.stringify(json.body), html.text, String(image.text ?? image.body)]) {
        expect(page).not.to.include(secret);
        expect(page.toLowerCase()).not.to.include(payer.address.toLowerCase());
        for (const d of pack.drills) expect(page).not.to.include(textOf(d));
      }
      expect(json.body.coaching.wallet).to.equal(`${payer.address.slice(0, 6)}…${payer.address.slice(-4)}`);
    });

    it('is a 404 for a coaching id that names no certificate', async function () {
      const res = await paid.stack.http.get(`/api/certificate/coaching-${randomUUID()}`);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('certificate_not_found');
      expect((await paid.stack.http.get(`/api/certificate/coaching-${randomUUID()}`).set('Accept', 'text/html')).status).to.equal(404);
    });
  });
});
