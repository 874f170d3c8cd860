import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../../../shared/db/create-data-source';
import { reserveAuthorization, storeResult, type AuthorizationRow } from '../../../../shared/payments/authorization-store';
import { ensureTestDatabase, truncateAll, waitForLockWaiters } from '../../../helpers/db';

const USDC = '0x0000000000000000000000000000000000000001';
const RESULT = {
  response: { result_id: 'r', score: { eq_score: 71 }, reward_bundle_tokens: [] },
  summary: { profile: 'grief-support-peer', score: 71, passed: true, scorerVersion: 'test' },
  calibrationText: null,
};

describe('storeResult on the database (the result and the payer\'s referral code in one statement)', function () {
  this.timeout(60_000);
  let ds: DataSource;
  let url: string;

  before(async function () {
    url = await ensureTestDatabase();
    ds = createDataSource({ url, poolMax: 4, ssl: false, preparedStatements: true }, 'test-store-result');
    await ds.initialize();
  });
  after(async function () {
    await ds?.destroy();
  });
  beforeEach(async function () {
    await truncateAll((sql) => ds.query(sql));
  });

  async function reserved(payer: string): Promise<AuthorizationRow> {
    const { row } = await reserveAuthorization(ds, {
      rail: 'exact-evm',
      network: 'eip155:8453',
      asset: USDC,
      payer,
      nonce: randomUUID(),
      x402Version: 2,
      resource: '/api/simulate',
      product: 'simulate',
      tier: 'basic',
      amount: '50000',
      requestHash: 'a'.repeat(64),
      payment: { rail: 'exact-evm', payload: {}, requirements: {} },
    });
    return row;
  }

  it('stores the body with the payer\'s referral code, made at the first call and the same at the next', async function () {
    const payer = `0x${'1'.repeat(40)}`;
    const first = await storeResult(ds, await reserved(payer), RESULT);
    expect(first.status).to.equal('scored');
    expect(first.response).to.deep.include(RESULT.response);
    expect(first.response?.referral_code).to.match(/^HL-[0-9A-Z]{8}$/);
    const second = await storeResult(ds, await reserved(payer), RESULT);
    expect(second.response?.referral_code).to.equal(first.response?.referral_code);
    const codes = (await ds.query(`SELECT wallet, code FROM referral_codes`)) as Array<{ wallet: string; code: string }>;
    expect(codes).to.deep.equal([{ wallet: payer, code: first.response?.referral_code }]);
  });

  it('stores the code another call made meanwhile, when it was committed after the statement began', async function () {
    const payer = `0x${'2'.repeat(40)}`;
    const row = await reserved(payer);
    // Another call makes this wallet's code and commits only once the store is waiting on it: the
    // store's snapshot predates it, so its statement finds no code and must read it and store again.
    const other = new Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`INSERT INTO referral_codes (wallet, code) VALUES ($1, 'HL-RACE0001')`, [payer]);
      const storing = storeResult(ds, row, RESULT);
      await waitForLockWaiters((sql) => ds.query(sql), 1);
      await other.query('COMMIT');
      const stored = await storing;
      expect(stored.status).to.equal('scored');
      expect(stored.response?.referral_code).to.equal('HL-RACE0001');
    } finally {
      await other.end();
    }
  });

  it('keeps the first stored result: a second store of the same authorization changes nothing', async function () {
    const row = await reserved(`0x${'3'.repeat(40)}`);
    const first = await storeResult(ds, row, RESULT);
    const again = await storeResult(ds, row, { ...RESULT, response: { result_id: 'other' } });
    expect(again.response).to.deep.equal(first.response);
  });
});
