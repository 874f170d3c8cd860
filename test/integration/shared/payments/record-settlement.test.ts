import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../../../shared/db/create-data-source';
import { recordSettlement, type LedgerEntry } from '../../../../shared/payments/authorization-store';
import { PRODUCT_TERMS, PRODUCTS } from '../../../../shared/products';
import { ensureTestDatabase, truncateAll, waitForLockWaiters } from '../../../helpers/db';

const USDC = '0x0000000000000000000000000000000000000001';

/** What a referral row says after the settlements. */
interface ReferralState {
  referred: string;
  referrer: string;
  authorizationId: string;
  purchases: number;
  spent: string;
  credits: number;
}

function creditsFor(spentUsdcUnits: number): number {
  return Math.floor((spentUsdcUnits * PRODUCT_TERMS.referralRewardPct) / 100 / PRODUCTS.simulate.tiers.basic.price.usdcUnits);
}

describe('recordSettlement on the database (the settlement function)', function () {
  this.timeout(60_000);
  let ds: DataSource;
  let url: string;

  before(async function () {
    url = await ensureTestDatabase();
    ds = createDataSource({ url, poolMax: 4, ssl: false, preparedStatements: true }, 'test-settlement-races');
    await ds.initialize();
  });
  after(async function () {
    await ds?.destroy();
  });
  beforeEach(async function () {
    await truncateAll((sql) => ds.query(sql));
  });

  async function giveCode(wallet: string): Promise<string> {
    const code = `HL-${randomUUID().slice(0, 8).toUpperCase()}`;
    await ds.query(`INSERT INTO referral_codes (wallet, code) VALUES ($1, $2)`, [wallet, code]);
    return code;
  }

  // A scored authorization, as storeResult leaves it, waiting for its settlement.
  async function scoredPurchase(
    payer: string,
    amount: number,
    referralCode: string | null,
    shared: { score: number; calibrationText: string | null } = { score: 80, calibrationText: null },
  ): Promise<string> {
    const summary = { profile: 'grief-support-peer', score: shared.score, passed: true, scorerVersion: 'test', referralCode };
    const rows = (await ds.query(
      `INSERT INTO payment_authorizations
         (rail, network, asset, payer, nonce, x402_version, resource, product, tier, amount, request_hash, result_id, status,
          payment, response, summary, calibration_text)
       VALUES ('exact-evm', 'eip155:8453', $1, $2, $3, 2, '/api/simulate', 'simulate', 'basic', $4, repeat('a', 64),
               gen_random_uuid(), 'scored', '{}'::jsonb, '{}'::jsonb, $5, $6)
       RETURNING id`,
      [USDC, payer, randomUUID(), amount, JSON.stringify(summary), shared.calibrationText],
    )) as Array<{ id: string }>;
    return rows[0].id;
  }

  // Holds back every write to referrals (binding and accrual) until released, so the settlements
  // started meanwhile all get as far as their locks let them, and are then let go together.
  async function holdReferralWrites(): Promise<() => Promise<void>> {
    const blocker = new Client({ connectionString: url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE referrals IN SHARE MODE');
    return async () => {
      await blocker.query('COMMIT');
      await blocker.end();
    };
  }

  // Starts the settlements one after another, each once the ones before it wait, then releases them.
  async function settleTogether(ids: string[]): Promise<Array<LedgerEntry | undefined>> {
    const release = await holdReferralWrites();
    const settling: Array<Promise<LedgerEntry | undefined>> = [];
    try {
      for (const id of ids) {
        settling.push(recordSettlement(ds, id, `0x${randomUUID().replace(/-/g, '')}`));
        // Unhandled until awaited below; a failure shows there.
        settling[settling.length - 1].catch(() => undefined);
        await waitForLockWaiters((sql) => ds.query(sql), settling.length);
      }
    } finally {
      await release();
    }
    return Promise.all(settling);
  }

  async function referrals(): Promise<ReferralState[]> {
    return (await ds.query(
      `SELECT referred_wallet AS referred, referrer_wallet AS referrer, authorization_id AS "authorizationId",
              qualifying_purchases AS purchases, spent_usdc_units::text AS spent, credits_earned AS credits
         FROM referrals ORDER BY referred_wallet`,
    )) as ReferralState[];
  }

  async function ledgerRows(payer: string): Promise<number> {
    const rows = (await ds.query(`SELECT count(*)::int AS n FROM ledger_sessions WHERE payer = $1`, [payer])) as Array<{ n: number }>;
    return rows[0].n;
  }

  it('binds one referral when two first purchases of a new wallet carry different codes, and accrues both to it', async function () {
    const [wallet, first, second] = ['0xaaa1', '0xbbb1', '0xbbb2'];
    const firstCode = await giveCode(first);
    const secondCode = await giveCode(second);
    const a = await scoredPurchase(wallet, 180_000, firstCode);
    const b = await scoredPurchase(wallet, 50_000, secondCode);

    const entries = await settleTogether([a, b]);

    expect(entries.map((e) => e?.payer)).to.deep.equal([wallet, wallet]);
    expect(await referrals()).to.deep.equal([
      { referred: wallet, referrer: first, authorizationId: a, purchases: 2, spent: '230000', credits: creditsFor(230_000) },
    ]);
    expect(await ledgerRows(wallet)).to.equal(2);
  });

  it('binds only one of two wallets that take each other\'s codes at once (no cycle)', async function () {
    const [one, two] = ['0xccc1', '0xccc2'];
    const oneCode = await giveCode(one);
    const twoCode = await giveCode(two);
    const oneBuys = await scoredPurchase(one, 50_000, twoCode);
    const twoBuys = await scoredPurchase(two, 50_000, oneCode);

    const entries = await settleTogether([oneBuys, twoBuys]);

    expect(entries.map((e) => e?.payer)).to.deep.equal([one, two]);
    expect(await referrals()).to.deep.equal([
      { referred: one, referrer: two, authorizationId: oneBuys, purchases: 1, spent: '50000', credits: creditsFor(50_000) },
    ]);
  });

  it('writes one ledger row and accrues once when the same authorization is settled twice at once', async function () {
    const [wallet, referrer] = ['0xddd1', '0xddd2'];
    const code = await giveCode(referrer);
    const id = await scoredPurchase(wallet, 180_000, code);

    const entries = await settleTogether([id, id]);

    expect(entries[0]?.resultId).to.be.a('string');
    expect(entries[1]).to.equal(undefined);
    expect(await ledgerRows(wallet)).to.equal(1);
    expect(await referrals()).to.deep.equal([
      { referred: wallet, referrer, authorizationId: id, purchases: 1, spent: '180000', credits: creditsFor(180_000) },
    ]);
  });

  it('accrues a purchase without a code that settles while the first purchase binds the referral', async function () {
    const [wallet, referrer] = ['0xeee1', '0xeee2'];
    const code = await giveCode(referrer);
    const withCode = await scoredPurchase(wallet, 50_000, code);
    const withoutCode = await scoredPurchase(wallet, 180_000, null);

    await settleTogether([withCode, withoutCode]);

    // Without the payer's lock the second purchase would accrue (to nothing) before the binding commits.
    expect(await referrals()).to.deep.equal([
      { referred: wallet, referrer, authorizationId: withCode, purchases: 2, spent: '230000', credits: creditsFor(230_000) },
    ]);
  });

  it('returns the ledger entry the feed publishes: ids, a decimal amount and a Date', async function () {
    const id = await scoredPurchase('0xfff1', 180_000, null);
    const entry = await recordSettlement(ds, id, '0xabc');
    const [row] = (await ds.query(`SELECT id, result_id, settled_at FROM ledger_sessions WHERE authorization_id = $1`, [id])) as Array<{
      id: string;
      result_id: string;
      settled_at: Date;
    }>;
    expect(entry).to.deep.equal({
      id: row.id,
      product: 'simulate',
      tier: 'basic',
      profile: 'grief-support-peer',
      score: 80,
      passed: true,
      resultId: row.result_id,
      network: 'eip155:8453',
      asset: USDC,
      amount: '180000',
      transaction: '0xabc',
      payer: '0xfff1',
      settledAt: row.settled_at,
      rewardsDue: false,
    });
    expect(entry?.settledAt).to.be.instanceOf(Date);
    expect(await recordSettlement(ds, id, '0xabc')).to.equal(undefined);
  });

  it('says whether the payer has referral rewards waiting, so the delivery skips its reward statement when none are', async function () {
    const referrer = '0xaaa1';
    const code = await giveCode(referrer);
    const earnsOneCredit = Math.ceil((PRODUCTS.simulate.tiers.basic.price.usdcUnits * 100) / PRODUCT_TERMS.referralRewardPct);
    expect(creditsFor(earnsOneCredit)).to.equal(1);
    const referred = await recordSettlement(ds, await scoredPurchase('0xbbb1', earnsOneCredit, code), '0x01');
    expect(referred?.rewardsDue).to.equal(false);
    expect((await recordSettlement(ds, await scoredPurchase(referrer, 50_000, null), '0x02'))?.rewardsDue).to.equal(true);
    await ds.query(`UPDATE referrals SET credits_delivered = credits_earned WHERE referrer_wallet = $1`, [referrer]);
    expect((await recordSettlement(ds, await scoredPurchase(referrer, 50_000, null), '0x03'))?.rewardsDue).to.equal(false);
  });

  it('writes the calibration share of an opted-in text and clears the stored copy', async function () {
    const id = await scoredPurchase('0xfff2', 50_000, null, { score: 91.5, calibrationText: 'a reply worth reviewing' });
    const entry = await recordSettlement(ds, id, '0xdef');
    const shares = (await ds.query(`SELECT result_id AS "resultId", profile, eq_score AS score, text, scorer_version AS version FROM calibration_shares`)) as unknown[];
    expect(shares).to.deep.equal([{ resultId: entry?.resultId, profile: 'grief-support-peer', score: 91.5, text: 'a reply worth reviewing', version: 'test' }]);
    const [auth] = (await ds.query(`SELECT calibration_text FROM payment_authorizations WHERE id = $1`, [id])) as Array<{ calibration_text: string | null }>;
    expect(auth.calibration_text).to.equal(null);
  });
});
