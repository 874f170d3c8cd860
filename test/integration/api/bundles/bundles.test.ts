import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { generateKeyPairSigner, getBase58Decoder, signBytes, type KeyPairSigner } from '@solana/kit';
import type { PrivateKeyAccount } from 'viem/accounts';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signedSolTransfer, startLocalSolanaRpc, type LocalSolanaRpc } from '../../../helpers/solana-rpc';
import { base64Json, signPayment } from '../../../helpers/x402-payments';

const BUNDLE_URL = `${PUBLIC_BASE_URL}/api/bundle`;
const SIMULATE_URL = `${PUBLIC_BASE_URL}/api/simulate`;
const BUNDLE = 42_500_000;
const FLEET = 49_980_000;
const BASIC = 50_000;
const BUNDLE_LAMPORTS = 229_500_000n;

// The documented recovery message, written out here so a change of format breaks this test.
function recoveryText(bundleId: string, timestamp: number): string {
  return `humanlike: recover bundle token\nbundle_id: ${bundleId}\ntimestamp: ${timestamp}`;
}

function session(wallet: string, extra: Record<string, unknown> = {}) {
  return {
    wallet_address: wallet,
    proposed_text: "Oh no, that's a rough week. Want me to call you tonight so we can sort the flights out together?",
    response_delay_seconds: 12,
    target_profile: 'grief-support-peer',
    ...extra,
  };
}

describe('prepaid bundles and referrals (real facilitator, real chain)', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let rpc: LocalSolanaRpc;
  let solTreasury: KeyPairSigner;

  before(async function () {
    rpc = await startLocalSolanaRpc();
    solTreasury = await generateKeyPairSigner();
    paid = await startPaidStack('bundle', { env: { SOLANA_RPC_URL: rpc.url, TREASURY_SOLANA_ADDRESS: solTreasury.address } });
  });
  after(async function () {
    await paid?.close();
    await rpc?.stop();
  });
  beforeEach(async function () {
    await paid.stack.truncate();
    paid.proxy.reset();
  });

  const now = () => Math.floor(Date.now() / 1000);
  const http = () => paid.stack.http;
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => paid.stack.deps.dataSource.query(text, params) as Promise<T[]>;

  async function buy(account: PrivateKeyAccount, body: Record<string, unknown> = {}, amount = BUNDLE) {
    const signed = await signPayment(account, paid.requirement(amount), BUNDLE_URL);
    const response = await http().post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: account.address, ...body });
    return { signed, response };
  }

  async function bought(account: PrivateKeyAccount, body: Record<string, unknown> = {}) {
    const { response } = await buy(account, body);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body as Record<string, any>;
  }

  async function paidSession(account: PrivateKeyAccount) {
    const signed = await signPayment(account, paid.requirement(BASIC), SIMULATE_URL);
    const body = session(account.address);
    const response = await http().post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(body);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return { signed, body, response };
  }

  function redeem(token: string, wallet: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    return http().post('/api/simulate').set('X-BUNDLE-TOKEN', token).set(headers).send(session(wallet, extra));
  }

  async function creditsLeft(bundleId: string): Promise<number> {
    return (await sql<{ credits_remaining: number }>(`SELECT credits_remaining FROM bundles WHERE id = $1`, [bundleId]))[0].credits_remaining;
  }

  // Every row of every table, as text: a secret must appear in none of them.
  async function everyRowText(): Promise<string> {
    const tables = await sql<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    let text = '';
    for (const { table_name } of tables) {
      const rows = await sql<{ row: string }>(`SELECT t::text AS row FROM "${table_name}" t`);
      text += rows.map((r) => r.row).join('\n');
    }
    return text;
  }

  async function codeOf(account: PrivateKeyAccount): Promise<string> {
    const { response } = await paidSession(account);
    return response.body.referral_code as string;
  }

  describe('POST /api/bundle', function () {
    it('quotes a plan without a wallet, and a wallet that sends no payment (402, nothing reserved)', async function () {
      const plain = await http().post('/api/bundle').send({ plan: 'bundle' });
      expect(plain.status).to.equal(402);
      expect(plain.body.resource.url).to.equal(BUNDLE_URL);
      expect(plain.body.accepts[0]).to.include({ amount: String(BUNDLE), maxAmountRequired: String(BUNDLE), payTo: paid.facilitator.treasury });
      expect(plain.body.accepts[1]).to.include({ network: 'solana', amount: String(BUNDLE_LAMPORTS) });
      expect(decodePaymentRequiredHeader(plain.headers['payment-required']).accepts[0].amount).to.equal(String(BUNDLE));
      expect((await http().post('/api/bundle').send({})).body.accepts[0].amount).to.equal(String(BUNDLE));

      const fleet = await http().post('/api/bundle').send({ plan: 'fleet' });
      expect(fleet.body.accepts[0].amount).to.equal(String(FLEET));
      expect((await http().get('/api/bundle?plan=fleet')).body.accepts[0].amount).to.equal(String(FLEET));
      const withWallet = await http().post('/api/bundle').send({ wallet_address: paid.payers[0].address });
      expect(withWallet.status).to.equal(402);
      expect(withWallet.body.error).to.equal('payment_required');

      const noWalletPaying = await http().post('/api/bundle').set('PAYMENT-SIGNATURE', base64Json({})).send({ plan: 'bundle' });
      expect(noWalletPaying.status).to.equal(422);
      expect(noWalletPaying.body.error.details.fields[0].path).to.equal('/wallet_address');
      expect((await http().post('/api/bundle').send({ plan: 'gold' })).status).to.equal(422);
      expect(await paid.count('payment_authorizations')).to.equal(0);
    });

    it('sells a bundle for exactly its price; the token is shown once and only its hash is stored; a replay shows no token', async function () {
      const payer = paid.payers[0];
      const before = await paid.balanceOf(payer.address);
      const { signed, response } = await buy(payer);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.headers['x-payment-replayed']).to.equal(undefined);
      const body = response.body;
      expect(body.bundle_token).to.match(/^hlb_[A-Za-z0-9_-]{43}$/);
      expect(body).to.include({ plan: 'bundle', credits: 1000, credits_remaining: 1000 });
      expect(body.wallet).to.equal(`${payer.address.slice(0, 6)}…${payer.address.slice(-4)}`);
      expect(body.referral_code).to.match(/^HL-[0-9A-Z]{8}$/);
      expect(body.reward_bundle_tokens).to.deep.equal([]);
      expect(body.result_id).to.match(/^[0-9a-f-]{36}$/);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BigInt(BUNDLE));

      const ledger = await sql(`SELECT product, tier, amount::text, payer FROM ledger_sessions`);
      expect(ledger).to.deep.equal([{ product: 'bundle', tier: 'bundle', amount: String(BUNDLE), payer: payer.address.toLowerCase() }]);
      const stored = await sql<{ token_hash: string; wallet: string }>(`SELECT token_hash, wallet FROM bundles WHERE id = $1`, [body.bundle_id]);
      expect(stored[0]).to.deep.equal({ token_hash: createHash('sha256').update(body.bundle_token).digest('hex'), wallet: payer.address.toLowerCase() });
      expect(await everyRowText()).to.not.include(body.bundle_token);

      const replay = await http().post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: payer.address });
      expect(replay.status).to.equal(200);
      expect(replay.headers['x-payment-replayed']).to.equal('true');
      expect(replay.body.bundle_token).to.equal(null);
      expect(replay.body.token_note).to.include('/api/bundle/recover');
      expect(replay.body).to.include({ bundle_id: body.bundle_id, result_id: body.result_id, credits: 1000 });
      expect(JSON.stringify(replay.body)).to.not.include(body.bundle_token);
      expect(await paid.balanceOf(payer.address)).to.equal(before - BigInt(BUNDLE));
      expect(await paid.count('ledger_sessions')).to.equal(1);

      const balance = await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', body.bundle_token);
      expect(balance.status).to.equal(200);
      expect(balance.body).to.include({ bundle_id: body.bundle_id, plan: 'bundle', credits_total: 1000, credits_remaining: 1000 });
      expect(balance.body.created_at).to.match(/^\d{4}-\d\d-\d\dT/);
    });

    it('sells the fleet plan: 10,000 credits under one token for ten bundles\' price', async function () {
      const payer = paid.payers[7];
      const before = await paid.balanceOf(payer.address);
      const { response } = await buy(payer, { plan: 'fleet' }, FLEET);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body).to.include({ plan: 'fleet', credits: 1176, credits_remaining: 1176 });
      expect(await paid.balanceOf(payer.address)).to.equal(before - BigInt(FLEET));
      expect((await sql(`SELECT tier FROM ledger_sessions`))[0]).to.deep.equal({ tier: 'fleet' });
    });

    it('answers 401 on the balance without a token, or with one that matches no bundle', async function () {
      const missing = await http().get('/api/bundle/balance');
      expect(missing.status).to.equal(401);
      expect(missing.body.error.code).to.equal('bundle_token_required');
      const unknown = await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', 'hlb_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      expect(unknown.status).to.equal(401);
      expect(unknown.body.error.code).to.equal('invalid_bundle_token');
    });
  });

  describe('POST /api/bundle/recover', function () {
    it('gives a new token for a personal_sign signature of the owner; refuses another signer, a stale timestamp and a reused signature; the old token stops working', async function () {
      const [owner, other] = paid.payers;
      const { bundle_id: bundleId, bundle_token: oldToken } = await bought(owner);
      const recover = (timestamp: number, signature: string, wallet: string = owner.address) =>
        http().post('/api/bundle/recover').send({ bundle_id: bundleId, wallet_address: wallet, timestamp, signature });

      const ts = now();
      const wrongSigner = await recover(ts, await other.signMessage({ message: recoveryText(bundleId, ts) }));
      expect(wrongSigner.status).to.equal(401);
      expect(wrongSigner.body.error.code).to.equal('invalid_signature');
      expect(wrongSigner.body.error.details.message).to.equal(recoveryText(bundleId, ts));

      const stale = now() - 301;
      const expired = await recover(stale, await owner.signMessage({ message: recoveryText(bundleId, stale) }));
      expect(expired.status).to.equal(401);
      expect(expired.body.error.code).to.equal('signature_expired');

      const notOwner = await recover(ts, await other.signMessage({ message: recoveryText(bundleId, ts) }), other.address);
      expect(notOwner.status).to.equal(404);
      expect(notOwner.body.error.code).to.equal('bundle_not_found');
      expect((await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', oldToken)).status).to.equal(200);

      const signature = await owner.signMessage({ message: recoveryText(bundleId, ts) });
      const recovered = await recover(ts, signature);
      expect(recovered.status, JSON.stringify(recovered.body)).to.equal(200);
      const newToken = recovered.body.bundle_token as string;
      expect(newToken).to.match(/^hlb_/).and.not.equal(oldToken);
      expect(recovered.body).to.include({ bundle_id: bundleId, credits_remaining: 1000 });

      const old = await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', oldToken);
      expect(old.status).to.equal(401);
      expect(old.body.error.code).to.equal('invalid_bundle_token');
      expect((await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', newToken)).body.credits_remaining).to.equal(1000);
      expect((await redeem(oldToken, owner.address)).status).to.equal(401);

      const reused = await recover(ts, signature);
      expect(reused.status).to.equal(401);
      expect(reused.body.error.code).to.equal('signature_reused');
      expect(await everyRowText()).to.not.include(newToken);
    });

    it('never shows the token when the settlement needed a retry (the retry is a replay); the wallet recovers one', async function () {
      const owner = paid.payers[3];
      const signed = await signPayment(owner, paid.requirement(BUNDLE), BUNDLE_URL);
      const post = () => http().post('/api/bundle').set('PAYMENT-SIGNATURE', signed.header).send({ wallet_address: owner.address });
      paid.proxy.set('/settle', 'error500');
      const failed = await post();
      expect(failed.status).to.equal(504);
      expect(failed.body.error.code).to.equal('settlement_pending');
      paid.proxy.set('/settle', 'pass');
      const settled = await post();
      expect(settled.status, JSON.stringify(settled.body)).to.equal(200);
      expect(settled.headers['x-payment-replayed']).to.equal('true');
      expect(settled.body.bundle_token).to.equal(null);
      expect(await paid.count('ledger_sessions')).to.equal(1);

      const ts = now();
      const recovered = await http()
        .post('/api/bundle/recover')
        .send({ bundle_id: settled.body.bundle_id, wallet_address: owner.address, timestamp: ts, signature: await owner.signMessage({ message: recoveryText(settled.body.bundle_id, ts) }) });
      expect(recovered.status, JSON.stringify(recovered.body)).to.equal(200);
      expect((await redeem(recovered.body.bundle_token, owner.address)).status).to.equal(200);
    });
  });

  describe('X-BUNDLE-TOKEN on POST /api/simulate', function () {
    it('spends one credit on a basic session with no chain transfer and no ledger row', async function () {
      const owner = paid.payers[1];
      const { bundle_id: bundleId, bundle_token: token } = await bought(owner);
      const before = await paid.balanceOf(owner.address);
      const res = await redeem(token, owner.address);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.score.suggested_prompt_addition).to.be.a('string').and.not.empty;
      expect(res.body.redemption).to.deep.equal({ bundle_id: bundleId, credits_spent: 1, credits_remaining: 999 });
      expect(res.body).to.not.have.property('payment');
      expect(res.body.reward_bundle_tokens).to.deep.equal([]);
      expect(res.headers['payment-response']).to.equal(undefined);
      expect(await paid.balanceOf(owner.address)).to.equal(before);
      expect(await paid.count('ledger_sessions')).to.equal(1);
      expect((await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', token)).body.credits_remaining).to.equal(999);
    });

    it('refuses deep, a wallet that does not own the bundle, and a payment alongside, spending nothing', async function () {
      const [owner, stranger] = [paid.payers[2], paid.payers[3]];
      const { bundle_id: bundleId, bundle_token: token } = await bought(owner);
      const deep = await redeem(token, owner.address, { tier: 'deep' });
      expect(deep.status).to.equal(422);
      expect(deep.body.error.code).to.equal('bundle_basic_only');
      const wrongWallet = await redeem(token, stranger.address);
      expect(wrongWallet.status).to.equal(403);
      expect(wrongWallet.body.error.code).to.equal('bundle_wallet_mismatch');
      const both = await redeem(token, owner.address, {}, { 'PAYMENT-SIGNATURE': base64Json({}) });
      expect(both.status).to.equal(400);
      expect(both.body.error.code).to.equal('ambiguous_payment');
      expect(await creditsLeft(bundleId)).to.equal(1000);
      expect(await paid.count('payment_authorizations')).to.equal(1);
    });

    it('gives the credit back when the scorer refuses the text', async function () {
      const owner = paid.payers[6];
      const { bundle_id: bundleId, bundle_token: token } = await bought(owner);
      // 15,000 emoji pass the schema (code points) but are 30,000 UTF-16 units, over the scorer's limit.
      const res = await redeem(token, owner.address, { proposed_text: '\u{1F600}'.repeat(15_000) }, { 'Idempotency-Key': 'too-long' });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('text_too_long');
      expect(await creditsLeft(bundleId)).to.equal(1000);
      expect(await paid.count('ledger_sessions')).to.equal(1);
      expect((await sql(`SELECT count(*)::int AS n FROM bundle_redemptions`))[0]).to.deep.equal({ n: 0 });
    });

    it('never goes below zero: 20 concurrent redemptions of the last 5 credits, exactly 5 succeed', async function () {
      const owner = paid.payers[4];
      const { bundle_id: bundleId, bundle_token: token } = await bought(owner);
      await sql(`UPDATE bundles SET credits_remaining = 5 WHERE id = $1`, [bundleId]);
      const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(token, owner.address)));
      const ok = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      expect(ok).to.have.length(5);
      expect(ok.map((a) => a.body.redemption.credits_remaining).sort()).to.deep.equal([0, 1, 2, 3, 4]);
      for (const r of refused) {
        expect(r.status).to.equal(402);
        expect(r.body.error).to.equal('bundle_exhausted');
        expect(r.body.accepts[0].amount).to.equal(String(BASIC));
        expect(r.headers['payment-required']).to.be.a('string');
      }
      expect(await creditsLeft(bundleId)).to.equal(0);
      expect(await paid.count('ledger_sessions')).to.equal(1);
      expect((await sql(`SELECT count(*)::int AS n FROM bundle_redemptions WHERE status = 'completed'`))[0]).to.deep.equal({ n: 5 });
    });

    it('replays the same request with the same Idempotency-Key without a second credit; another request with the key is 409', async function () {
      const owner = paid.payers[5];
      const { bundle_id: bundleId, bundle_token: token } = await bought(owner);
      const key = { 'Idempotency-Key': 'agent-7-turn-42' };
      const first = await redeem(token, owner.address, {}, key);
      expect(first.status).to.equal(200);
      const again = await redeem(token, owner.address, {}, key);
      expect(again.status).to.equal(200);
      expect(again.headers['x-payment-replayed']).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect(await creditsLeft(bundleId)).to.equal(999);
      const other = await redeem(token, owner.address, { proposed_text: 'A different reply.' }, key);
      expect(other.status).to.equal(409);
      expect(other.body.error.code).to.equal('idempotency_conflict');
      expect(await creditsLeft(bundleId)).to.equal(999);
      expect((await redeem(token, owner.address, {}, { 'Idempotency-Key': 'agent-7-turn-43' })).status).to.equal(200);
      expect(await creditsLeft(bundleId)).to.equal(998);
    });
  });

  describe('referrals', function () {
    it("credits the referrer 50% of the referred wallet's spend with carry-over, as a token in the referrer's next paid response", async function () {
      const [referrer, referred] = [paid.payers[0], paid.payers[1]];
      const code = await codeOf(referrer);
      const purchase = await bought(referred, { referral_code: code.toLowerCase() });
      expect(purchase.referral).to.include({ code, status: 'applied' });

      const status = async () => (await http().get(`/api/referral/status/${code}`)).body;
      // 42,500,000 * 50% / 50,000 = 425 credits.
      expect(await status()).to.deep.equal({ code, referred_wallets: 1, qualifying_purchases: 1, credits_earned: 425, credits_delivered: 0, credits_pending: 425 });
      // A basic session is worth half a credit: the half is carried, the second one completes it.
      await paidSession(referred);
      expect(await status()).to.include({ qualifying_purchases: 2, credits_earned: 425 });
      await paidSession(referred);
      expect(await status()).to.include({ qualifying_purchases: 3, credits_earned: 426, credits_pending: 426 });

      const next = await paidSession(referrer);
      const tokens = next.response.body.reward_bundle_tokens as string[];
      expect(tokens).to.have.length(1);
      expect(next.response.body.reward_bundles).to.have.length(1);
      expect(next.response.body.reward_bundles[0].credits).to.equal(426);
      expect(await everyRowText()).to.not.include(tokens[0]);
      const replay = await http().post('/api/simulate').set('PAYMENT-SIGNATURE', next.signed.header).send(next.body);
      expect(replay.body.reward_bundle_tokens).to.deep.equal([]);
      expect(replay.body.reward_bundles).to.deep.equal(next.response.body.reward_bundles);

      const balance = await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', tokens[0]);
      expect(balance.body).to.include({ plan: 'referral-reward', credits_total: 426, credits_remaining: 426 });
      expect((await redeem(tokens[0], referrer.address)).status).to.equal(200);
      expect((await redeem(tokens[0], referred.address)).status).to.equal(403);

      const after = await status();
      expect(after).to.deep.equal({ code, referred_wallets: 1, qualifying_purchases: 3, credits_earned: 426, credits_delivered: 426, credits_pending: 0 });
      const text = JSON.stringify(after).toLowerCase();
      for (const secret of [referrer.address, referred.address, tokens[0], purchase.bundle_token]) expect(text).to.not.include(secret.toLowerCase());
      expect((await paidSession(referrer)).response.body.reward_bundle_tokens).to.deep.equal([]);
      expect((await http().get('/api/referral/status/HL-UNKNOWN0')).status).to.equal(404);
    });

    it('refuses unknown, self and circular codes before payment, and ignores a code for a wallet with a referrer or that is not new', async function () {
      const [a, b, c, d] = [paid.payers[2], paid.payers[3], paid.payers[4], paid.payers[5]];
      const refused = async (account: PrivateKeyAccount, code: string, error: string) => {
        const before = await paid.balanceOf(account.address);
        const { response } = await buy(account, { referral_code: code });
        expect(response.status, JSON.stringify(response.body)).to.equal(422);
        expect(response.body.error.code).to.equal(error);
        expect(response.body.error.details.fields[0].path).to.equal('/referral_code');
        expect(await paid.balanceOf(account.address)).to.equal(before);
      };
      const codeA = await codeOf(a);
      await refused(a, 'HL-00000000', 'invalid_referral_code');
      await refused(a, codeA, 'self_referral');

      const codeB = (await bought(b, { referral_code: codeA })).referral_code as string;
      await refused(a, codeB, 'circular_referral');
      const codeC = (await bought(c, { referral_code: codeB })).referral_code as string;
      await refused(a, codeC, 'circular_referral'); // a referred b, b referred c

      const codeD = await codeOf(d);
      const second = await bought(b, { referral_code: codeD });
      expect(second.referral).to.include({ code: codeD, status: 'ignored', reason: 'already_referred' });
      const notNew = await bought(d, { referral_code: codeA });
      expect(notNew.referral).to.include({ code: codeA, status: 'ignored', reason: 'not_new_wallet' });

      const referrals = await sql(`SELECT referred_wallet, referrer_wallet FROM referrals ORDER BY created_at`);
      expect(referrals).to.deep.equal([
        { referred_wallet: b.address.toLowerCase(), referrer_wallet: a.address.toLowerCase() },
        { referred_wallet: c.address.toLowerCase(), referrer_wallet: b.address.toLowerCase() },
      ]);
      // b's second bundle still counts for a (its one referrer); d's purchases count for nobody.
      expect((await http().get(`/api/referral/status/${codeA}`)).body).to.include({ referred_wallets: 1, qualifying_purchases: 2, credits_earned: 850 });
      expect((await http().get(`/api/referral/status/${codeD}`)).body).to.include({ referred_wallets: 0, credits_earned: 0 });
    });

    it('a Solana wallet: bought with X-PAYMENT, credited in lamports, and recovers its token with an ed25519 signature', async function () {
      const referrer = paid.payers[6];
      const code = await codeOf(referrer);
      const wallet = await generateKeyPairSigner();
      const tx = await signedSolTransfer({ feePayer: wallet, transfers: [{ source: wallet, destination: solTreasury.address, lamports: BUNDLE_LAMPORTS }] });
      const signature = await rpc.add(tx.wire);
      const header = base64Json({ x402Version: 1, scheme: 'exact', network: 'solana', payload: { signature, payer: wallet.address } });
      const res = await http().post('/api/bundle').set('X-PAYMENT', header).send({ wallet_address: wallet.address, referral_code: code });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.bundle_token).to.match(/^hlb_/);
      expect(res.body.referral).to.include({ status: 'applied' });
      // 229,500,000 lamports * 50% / 270,000 = 425 credits.
      expect((await http().get(`/api/referral/status/${code}`)).body).to.include({ credits_earned: 425 });

      const ts = now();
      const sign = async (signer: KeyPairSigner) =>
        getBase58Decoder().decode(await signBytes(signer.keyPair.privateKey, new TextEncoder().encode(recoveryText(res.body.bundle_id, ts))));
      const recover = (sig: string) => http().post('/api/bundle/recover').send({ bundle_id: res.body.bundle_id, wallet_address: wallet.address, timestamp: ts, signature: sig });
      const forged = await recover(await sign(await generateKeyPairSigner()));
      expect(forged.status).to.equal(401);
      expect(forged.body.error.code).to.equal('invalid_signature');
      const recovered = await recover(await sign(wallet));
      expect(recovered.status, JSON.stringify(recovered.body)).to.equal(200);
      expect((await http().get('/api/bundle/balance').set('X-BUNDLE-TOKEN', res.body.bundle_token)).status).to.equal(401);
      expect((await redeem(recovered.body.bundle_token, wallet.address)).body.redemption.credits_remaining).to.equal(999);
    });
  });
});
