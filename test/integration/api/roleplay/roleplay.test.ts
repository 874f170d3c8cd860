import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { Job } from 'bullmq';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createLogger } from '../../../../shared/logger';
import { createRoleplayExpiryProcessor } from '../../../../workers/maintenance/roleplay-expiry.processor';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const PATH = '/api/roleplay';
const RESOURCE = `${PUBLIC_BASE_URL}${PATH}`;
const PRICE = 400_000;
const SECRET_HEADER = 'X-ROLEPLAY-SECRET';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

// What each chair says: asks with their declared feeling, helps that read it right or wrong.
const ASK = {
  anxious: "honestly i've been lying awake about the interview tomorrow, my stomach is in knots and i keep rehearsing answers",
  lonely: 'moved to a new city last month and the evenings are so quiet, nobody texts, i just sit there',
};
const HELP_RIGHT = {
  anxious: "oh that sounds so nerve-racking, no wonder you're anxious. want to run through a couple of answers together tonight?",
  lonely: "that sounds really lonely, the first months in a new place are hard. you're welcome to text me in the evenings, ok?",
};
const HELP_WRONG = "ugh, that sounds so frustrating. maybe just try to take it one step at a time and see how it goes";

describe('role-play rooms (real facilitator, real chain, real queue)', function () {
  this.timeout(90_000);
  let paid: PaidStack;
  let payer: PrivateKeyAccount;
  let treasury: `0x${string}`;

  before(async function () {
    paid = await startPaidStack('roleplay');
    payer = paid.payers[0];
    treasury = paid.facilitator.treasury;
  });
  after(async function () {
    await paid?.close();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
  });

  const http = () => paid.stack.http;
  const query = (sql: string, params: unknown[] = []) => paid.stack.deps.dataSource.query(sql, params) as Promise<Array<Record<string, unknown>>>;

  async function openRoom(extra: Record<string, unknown> = {}) {
    const signed = await signPayment(payer, paid.requirement(PRICE), RESOURCE);
    const res = await http().post(PATH).set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: payer.address, ...extra });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res;
  }

  async function join(roomId: string) {
    return http().post('/api/roleplay/join').send({ room_id: roomId });
  }

  async function turn(roomId: string, secret: string | undefined, text: string, feeling?: string) {
    const req = http().post('/api/roleplay/turn');
    if (secret !== undefined) req.set(SECRET_HEADER, secret);
    return req.send({ room_id: roomId, text, response_delay_seconds: 40, ...(feeling ? { feeling } : {}) });
  }

  async function openAndJoin(extra: Record<string, unknown> = {}) {
    const opened = await openRoom(extra);
    const joined = await join(opened.body.room_id);
    expect(joined.status, JSON.stringify(joined.body)).to.equal(200);
    return { roomId: opened.body.room_id as string, opener: opened.body.session_secret as string, joiner: joined.body.session_secret as string };
  }

  describe('the quote and the catalog', function () {
    it('answers GET and an unpaid POST with the 402 quote at 400000, and the manifest lists the room and its free join', async function () {
      const get = await http().get(PATH);
      expect(get.status).to.equal(402);
      expect(get.body.accepts[0]).to.include({ amount: String(PRICE) });
      const post = await http().post(PATH).send({ wallet_address: payer.address });
      expect(post.status).to.equal(402);
      expect(post.body.accepts[0]).to.include({ amount: String(PRICE) });
      expect(post.body.secret_note).to.be.a('string');
      expect(await paid.count('payment_authorizations')).to.equal(0);

      const pricing = await http().get('/api/pricing');
      expect(pricing.body.roleplay_endpoint).to.include({ available: true, price_usdc_units: PRICE, price_lamports: 2_160_000, turns: 8, lamports_per_turn: 270_000 });
      expect(pricing.body.roleplay_endpoint.join).to.include({ available: true, price_usdc_units: 0 });
      const doc = await http().get('/api/openapi.json');
      for (const p of ['/api/roleplay', '/api/roleplay/open', '/api/roleplay/join', '/api/roleplay/turn', '/api/roleplay/{room_id}', '/api/roleplay/feelings']) {
        expect(doc.body.paths, p).to.have.property(p);
      }
    });

    it('refuses a bad body with 422 before any payment', async function () {
      const res = await http().post(PATH).send({ wallet_address: payer.address, profile: 'pirate-captain', open_to_any_partner: 'yes' });
      expect(res.status).to.equal(422);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path).sort()).to.deep.equal(['/open_to_any_partner', '/profile']);
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });
  });

  describe('none -> open -> joined', function () {
    it('opens a paid room (exactly the price moves), lists it without secrets or wallets, and stores only hashes', async function () {
      const before = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const res = await openRoom({ profile: 'grief-support-peer', open_to_any_partner: true });
      const receipt = decodePaymentResponseHeader(res.headers['payment-response']);
      expect(receipt).to.include({ success: true, payer: payer.address });
      expect(res.body).to.include({ state: 'open', profile: 'grief-support-peer', open_to_any_partner: true, chair: 'opener' });
      expect(res.body.session_secret).to.match(/^hlr_[A-Za-z0-9_-]{43}$/);
      expect(await paid.balanceOf(payer.address)).to.equal(before.payer - BigInt(PRICE));
      expect(await paid.balanceOf(treasury)).to.equal(before.treasury + BigInt(PRICE));
      const ledger = await query(`SELECT product, amount, profile FROM ledger_sessions`);
      expect(ledger).to.deep.equal([{ product: 'roleplay', amount: String(PRICE), profile: 'grief-support-peer' }]);

      const secret = res.body.session_secret as string;
      const [row] = await query(`SELECT state, opener_secret_hash, joiner_secret_hash, extract(epoch FROM expires_at - opened_at)::int AS window_s FROM roleplay_rooms`);
      expect(row).to.include({ state: 'open', opener_secret_hash: sha256(secret), joiner_secret_hash: null });
      expect(row.window_s).to.equal(48 * 3600);
      // The secret is nowhere in the database: not in the room, not in the stored response.
      const everything = JSON.stringify([await query(`SELECT * FROM roleplay_rooms`), await query(`SELECT * FROM payment_authorizations`)]);
      expect(everything).to.not.include(secret);

      const list = await http().get('/api/roleplay/open');
      expect(list.status).to.equal(200);
      expect(list.body.rooms).to.have.length(1);
      expect(list.body.rooms[0]).to.have.keys(['room_id', 'profile', 'opened_at', 'expires_at']);
      expect(list.body.rooms[0].room_id).to.equal(res.body.room_id);
      const text = JSON.stringify(list.body).toLowerCase();
      expect(text).to.not.include(secret.toLowerCase());
      expect(text).to.not.include(payer.address.toLowerCase().slice(2));

      // The public room view: state and progress, no secret, no wallet.
      const view = await http().get(`/api/roleplay/${res.body.room_id}`);
      expect(view.body).to.include({ state: 'open', viewer: 'public', turns_taken: 0, next_turn: null });
      expect(JSON.stringify(view.body).toLowerCase()).to.not.include(payer.address.toLowerCase().slice(2));
    });

    it('keeps a room opened without open_to_any_partner off the public list, joinable by its room_id', async function () {
      const res = await openRoom();
      expect(res.body.open_to_any_partner).to.equal(false);
      expect(res.body.profile).to.equal('empathetic-counselor');
      expect((await http().get('/api/roleplay/open')).body.rooms).to.deep.equal([]);
      expect((await join(res.body.room_id)).status).to.equal(200);
    });

    it("joins for free with the joiner's own independent secret, once", async function () {
      const opened = await openRoom({ open_to_any_partner: true });
      const balances = { payer: await paid.balanceOf(payer.address), treasury: await paid.balanceOf(treasury) };
      const authorizations = await paid.count('payment_authorizations');

      const joined = await join(opened.body.room_id);
      expect(joined.status, JSON.stringify(joined.body)).to.equal(200);
      expect(joined.body).to.include({ state: 'joined', viewer: 'joiner', turns_taken: 0 });
      expect(joined.body.next_turn).to.deep.equal({ turn: 1, chair: 'opener', role: 'asker' });
      const opener = opened.body.session_secret as string;
      const joiner = joined.body.session_secret as string;
      expect(joiner).to.match(/^hlr_[A-Za-z0-9_-]{43}$/);
      expect(joiner).to.not.equal(opener);
      // Not derived from the opener's: no shared material beyond the prefix, not its hash.
      expect(joiner.slice(4, 12)).to.not.equal(opener.slice(4, 12));
      expect(Buffer.from(joiner.slice(4), 'base64url').toString('hex')).to.not.equal(sha256(opener));
      expect(JSON.stringify(joined.body)).to.not.include(opener);

      expect(await paid.balanceOf(payer.address)).to.equal(balances.payer);
      expect(await paid.balanceOf(treasury)).to.equal(balances.treasury);
      expect(await paid.count('payment_authorizations')).to.equal(authorizations);
      const [row] = await query(`SELECT state, opener_secret_hash, joiner_secret_hash FROM roleplay_rooms`);
      expect(row).to.include({ state: 'joined', opener_secret_hash: sha256(opener), joiner_secret_hash: sha256(joiner) });
      expect((await http().get('/api/roleplay/open')).body.rooms).to.deep.equal([]);

      const again = await join(opened.body.room_id);
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('room_already_joined');
      expect((await join('00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    });

    it('answers a replay of the opening purchase with the room as it is now, not as it was bought', async function () {
      const signed = await signPayment(payer, paid.requirement(PRICE), RESOURCE);
      const body = { wallet_address: payer.address };
      const opened = await http().post(PATH).set('PAYMENT-SIGNATURE', signed.header).send(body);
      expect(opened.body.state).to.equal('open');
      const replayOpen = await http().post(PATH).set('PAYMENT-SIGNATURE', signed.header).send(body);
      expect([replayOpen.status, replayOpen.body.state, replayOpen.body.session_secret]).to.deep.equal([200, 'open', null]);
      expect(replayOpen.body.expires_at).to.equal(opened.body.expires_at);
      expect((await join(opened.body.room_id)).status).to.equal(200);
      const replayJoined = await http().post(PATH).set('PAYMENT-SIGNATURE', signed.header).send(body);
      expect([replayJoined.status, replayJoined.body.state]).to.deep.equal([200, 'joined']);
    });

    it('lets exactly one of many concurrent joins in', async function () {
      const opened = await openRoom({ open_to_any_partner: true });
      const answers = await Promise.all(Array.from({ length: 6 }, () => join(opened.body.room_id)));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409, 409, 409, 409, 409]);
    });
  });

  describe('open -> expired after 48 hours', function () {
    async function ageRoom(roomId: string, hours: number) {
      // The clock is advanced in the database: the room was opened `hours` ago.
      await query(
        `UPDATE roleplay_rooms SET opened_at = opened_at - make_interval(hours => $2), expires_at = expires_at - make_interval(hours => $2),
                created_at = created_at - make_interval(hours => $2) WHERE id = $1`,
        [roomId, hours],
      );
    }
    const expire = () => createRoleplayExpiryProcessor({ dataSource: paid.stack.deps.dataSource, log: createLogger(paid.stack.config, 'test') })({ id: 'e' } as Job);

    it('expires a room left unmatched 48 hours, and not one at 47', async function () {
      const old = await openRoom({ open_to_any_partner: true });
      const young = await openRoom({ open_to_any_partner: true });
      await ageRoom(old.body.room_id, 48);
      await ageRoom(young.body.room_id, 47);

      expect(await expire()).to.deep.equal({ expired: 1 });
      const view = await http().get(`/api/roleplay/${old.body.room_id}`);
      expect(view.body.state).to.equal('expired');
      expect(view.body.expired_at).to.be.a('string');
      expect((await http().get('/api/roleplay/open')).body.rooms.map((r: { room_id: string }) => r.room_id)).to.deep.equal([young.body.room_id]);
      const refused = await join(old.body.room_id);
      expect(refused.status).to.equal(410);
      expect(refused.body.error.code).to.equal('room_expired');
      const turnOnExpired = await turn(old.body.room_id, old.body.session_secret, ASK.anxious, 'anxious');
      expect(turnOnExpired.status).to.equal(410);
      // The opening stays on the ledger; nothing is refunded.
      expect(await paid.count('ledger_sessions')).to.equal(2);
      expect(await expire()).to.deep.equal({ expired: 0 });
      expect((await join(young.body.room_id)).status).to.equal(200);
    });

    it('refuses a join past the deadline even before the job ran', async function () {
      const opened = await openRoom({ open_to_any_partner: true });
      await ageRoom(opened.body.room_id, 48);
      expect((await http().get('/api/roleplay/open')).body.rooms).to.deep.equal([]);
      expect((await join(opened.body.room_id)).status).to.equal(410);
    });

    it('decides a join racing the expiry in the database: joined or expired, never both', async function () {
      const due = await openRoom();
      const notDue = await openRoom();
      await ageRoom(due.body.room_id, 48);
      const [joinDue, joinNotDue, swept] = await Promise.all([join(due.body.room_id), join(notDue.body.room_id), expire()]);
      expect(joinDue.status).to.equal(410);
      expect(joinNotDue.status).to.equal(200);
      expect(swept).to.deep.equal({ expired: 1 });
      const rows = await query(`SELECT id, state, joiner_secret_hash IS NOT NULL AS has_joiner FROM roleplay_rooms ORDER BY state`);
      expect(rows.map((r) => [r.id, r.state, r.has_joiner])).to.deep.equal([
        [due.body.room_id, 'expired', false],
        [notDue.body.room_id, 'joined', true],
      ]);
    });
  });

  describe('eight turns', function () {
    it('plays ask/help pairs with the chairs swapped at turn 5, grades the readings, and reports both bots', async function () {
      const { roomId, opener, joiner } = await openAndJoin();
      const plan: Array<[string, string, string | undefined]> = [
        [opener, ASK.anxious, 'anxious'],
        [joiner, HELP_RIGHT.anxious, undefined],
        [opener, ASK.lonely, 'lonely'],
        [joiner, HELP_WRONG, undefined],
        [joiner, ASK.lonely, 'lonely'],
        [opener, HELP_RIGHT.lonely, undefined],
        [joiner, ASK.anxious, 'anxious'],
        [opener, HELP_WRONG, undefined],
      ];
      const answers: Array<Record<string, any>> = [];
      for (const [i, [secret, text, feeling]] of plan.entries()) {
        const res = await turn(roomId, secret, text, feeling);
        expect(res.status, `turn ${i + 1}: ${JSON.stringify(res.body)}`).to.equal(200);
        answers.push(res.body);

        if (i === 0) {
          // Before the room ends the declared feeling stays with the asker.
          const asJoiner = await http().get(`/api/roleplay/${roomId}`).set(SECRET_HEADER, joiner);
          expect(asJoiner.body.viewer).to.equal('joiner');
          expect(asJoiner.body.turns).to.have.length(1);
          expect(asJoiner.body.turns[0].feeling).to.equal(null);
          expect(JSON.stringify(asJoiner.body)).to.not.include('anxious');
          const asOpener = await http().get(`/api/roleplay/${roomId}`).set(SECRET_HEADER, opener);
          expect(asOpener.body.turns[0].feeling).to.equal('anxious');
          const asPublic = await http().get(`/api/roleplay/${roomId}`);
          expect(asPublic.body).to.include({ viewer: 'public', turns_taken: 1, report: null });
          expect(asPublic.body.turns).to.deep.equal([]);
        }
      }
      expect(answers.map((a) => `${a.turn}:${a.chair}:${a.role}`)).to.deep.equal([
        '1:opener:asker',
        '2:joiner:helper',
        '3:opener:asker',
        '4:joiner:helper',
        '5:joiner:asker',
        '6:opener:helper',
        '7:joiner:asker',
        '8:opener:helper',
      ]);
      expect(answers.map((a) => a.feeling_reading?.feeling_read ?? null)).to.deep.equal([null, 'anxious', null, 'frustrated', null, 'lonely', null, 'frustrated']);
      // A help's grade would give the feeling away: it waits for the end.
      expect(answers[1].turn_score).to.equal(null);
      expect(answers[0].turn_score).to.equal(answers[0].score.eq_score);
      expect(answers[7]).to.include({ room_state: 'completed', turns_taken: 8, next_turn: null });

      const report = await http().get(`/api/roleplay/${roomId}`);
      expect(report.status).to.equal(200);
      expect(report.body).to.include({ state: 'completed', viewer: 'public', turns_taken: 8 });
      const turns = report.body.turns as Array<Record<string, any>>;
      expect(turns).to.have.length(8);
      expect(turns.map((t) => t.reading_correct)).to.deep.equal([null, true, null, false, null, true, null, false]);
      expect(turns.map((t) => t.feeling)).to.deep.equal(['anxious', null, 'lonely', null, 'lonely', null, 'anxious', null]);
      for (const t of turns) {
        const expected = t.role === 'asker' ? t.eq_score : Math.round((0.75 * t.eq_score + (t.reading_correct ? 25 : 0)) * 10) / 10;
        expect(t.turn_score, `turn ${t.turn}`).to.equal(expected);
        expect(t.eq_score).to.equal(answers[t.turn - 1].score.eq_score);
      }
      const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
      for (const chair of ['opener', 'joiner']) {
        const own = turns.filter((t) => t.chair === chair);
        expect(report.body.report[chair]).to.deep.equal({
          turns: own.map((t) => t.turn),
          overall_score: mean(own.map((t) => t.turn_score)),
          average_eq_score: mean(own.map((t) => t.eq_score)),
          readings_correct: 1,
          readings_total: 2,
        });
      }
      // No text is stored, only scores.
      const stored = JSON.stringify(await query(`SELECT * FROM roleplay_turns`));
      expect(stored).to.not.include('interview');
      expect(stored).to.not.include('frustrating');

      const ninth = await turn(roomId, joiner, ASK.anxious, 'anxious');
      expect(ninth.status).to.equal(409);
      expect(ninth.body.error.code).to.equal('room_completed');
    });

    it('refuses turns out of order, before a join, without or with a wrong secret, and with a misplaced feeling', async function () {
      const lonely = await openRoom();
      const early = await turn(lonely.body.room_id, lonely.body.session_secret, ASK.anxious, 'anxious');
      expect(early.status).to.equal(409);
      expect(early.body.error.code).to.equal('room_not_joined');

      const { roomId, opener, joiner } = await openAndJoin();
      const outOfOrder = await turn(roomId, joiner, ASK.anxious, 'anxious');
      expect(outOfOrder.status).to.equal(409);
      expect(outOfOrder.body.error.code).to.equal('not_your_turn');
      expect(outOfOrder.body.error.details.next_turn).to.deep.equal({ turn: 1, chair: 'opener', role: 'asker' });

      expect((await turn(roomId, undefined, ASK.anxious, 'anxious')).body.error.code).to.equal('session_secret_required');
      const wrong = await turn(roomId, lonely.body.session_secret, ASK.anxious, 'anxious');
      expect(wrong.status).to.equal(401);
      expect(wrong.body.error.code).to.equal('invalid_session_secret');
      expect((await turn(roomId, 'not-a-secret', ASK.anxious, 'anxious')).status).to.equal(401);
      expect((await http().get(`/api/roleplay/${roomId}`).set(SECRET_HEADER, lonely.body.session_secret)).status).to.equal(401);

      const noFeeling = await turn(roomId, opener, ASK.anxious);
      expect(noFeeling.status).to.equal(422);
      expect(noFeeling.body.error.code).to.equal('feeling_required');
      const badFeeling = await turn(roomId, opener, ASK.anxious, 'bored');
      expect(badFeeling.status).to.equal(422);

      expect((await turn(roomId, opener, ASK.anxious, 'anxious')).status).to.equal(200);
      const twice = await turn(roomId, opener, ASK.anxious, 'anxious');
      expect(twice.status).to.equal(409);
      expect(twice.body.error.code).to.equal('not_your_turn');
      const helpWithFeeling = await turn(roomId, joiner, HELP_RIGHT.anxious, 'anxious');
      expect(helpWithFeeling.status).to.equal(422);
      expect(helpWithFeeling.body.error.code).to.equal('feeling_not_allowed');
      const [row] = await query(`SELECT turns_taken FROM roleplay_rooms WHERE id = $1`, [roomId]);
      expect(row.turns_taken).to.equal(1);
    });

    it('records one of two concurrent attempts at the same turn', async function () {
      const { roomId, opener } = await openAndJoin();
      const both = await Promise.all([turn(roomId, opener, ASK.anxious, 'anxious'), turn(roomId, opener, ASK.lonely, 'lonely')]);
      expect(both.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect(await query(`SELECT turn_no FROM roleplay_turns`)).to.deep.equal([{ turn_no: 1 }]);
    });
  });

  it('publishes the feelings and how a help is read', async function () {
    const res = await http().get('/api/roleplay/feelings');
    expect(res.status).to.equal(200);
    expect(res.body.feelings.map((f: { id: string }) => f.id)).to.include.members(['anxious', 'sad', 'lonely', 'frustrated']);
    expect(res.body.reading).to.match(/negat/);
  });
});
