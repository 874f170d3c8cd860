import type { DataSource } from 'typeorm';
import type { NetworkConfig } from '../../shared/operators/network-config';
import { EQ_SESSION_PRODUCTS, EQ_SESSION_SQL } from '../../shared/eq-sessions';
import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';
import { AppError } from '../../shared/errors';
import { walletKey } from '../payments/bundle-credit/wallet-key';
import type { Charge } from '../payments/charge';
import { quoteFor } from '../payments/loyalty';

/**
 * A wallet's consecutive failures: how many of its most recent settled scored sessions (simulate
 * sessions and duel legs; a stress test, a rewrite, a script check or a purchase is no session here)
 * failed, counted back from the newest until the first pass. A wallet with no pass counts every
 * failed session it has; one whose newest session passed has 0.
 * @param ds - DataSource
 * @param wallet - a `wallet_address` as sent
 * @returns the count
 */
export async function consecutiveFailures(ds: DataSource, wallet: string): Promise<number> {
  const rows = (await ds.query(
    `SELECT count(*)::int AS n FROM ledger_sessions
      WHERE payer = $1 AND ${EQ_SESSION_SQL} AND passed = false
        AND settled_at > coalesce(
          (SELECT max(settled_at) FROM ledger_sessions WHERE payer = $1 AND ${EQ_SESSION_SQL} AND passed = true), '-infinity')`,
    [walletKey(wallet)],
  )) as Array<{ n: number }>;
  return rows[0]?.n ?? 0;
}

/** How a duel entry was priced for a wallet, as the 402 quote and the receipt show it. */
export interface DuelFee {
  entry_usdc_units: number;
  entry_lamports: number;
  failures: number;
  /** The ledger products whose failed sessions count in `failures` (simulate sessions and duel legs). */
  counted_products: readonly string[];
  /** 1 + failures x 0.5. */
  multiplier: number;
  /** The escalated fee before any loyalty discount. */
  escalated_usdc_units: number;
  escalated_lamports: number;
  /** More consecutive failures than this suspend the wallet from duels. */
  suspension_cap: number;
}

/** A wallet's live duel quote: the charge (escalated, then discounted) and how it was made. */
export interface DuelQuote {
  charge: Charge;
  fee: DuelFee;
}

// entry x (1 + failures x 0.5) in integer minor units: entry x (2 + failures) / 2, rounded down.
const escalate = (units: number, failures: number) => Math.floor((units * (2 + failures)) / 2);

/**
 * The live quote of one duel entry for a wallet (section 8): the entry fee times
 * (1 + failures x 0.5), then the loyalty discount. A payment must match it exactly.
 * @param ds - DataSource
 * @param wallet - the request's `wallet_address`; without one, the base quote (no failures)
 * @param network - the runtime network configuration (the suspension cap)
 * @returns the charge and the fee's terms
 */
export async function duelQuote(ds: DataSource, wallet: string | undefined, network: NetworkConfig): Promise<DuelQuote> {
  const product = PRODUCTS.duel;
  const failures = wallet === undefined ? 0 : await consecutiveFailures(ds, wallet);
  const entry = product.tiers[product.defaultTier].price;
  const fee: DuelFee = {
    entry_usdc_units: entry.usdcUnits,
    entry_lamports: entry.lamports,
    failures,
    counted_products: EQ_SESSION_PRODUCTS,
    multiplier: 1 + failures * PRODUCT_TERMS.duelFailureSurcharge,
    escalated_usdc_units: escalate(entry.usdcUnits, failures),
    escalated_lamports: escalate(entry.lamports, failures),
    suspension_cap: network.failureSuspensionCap,
  };
  const charge = await quoteFor(ds, product, undefined, wallet, network, (base) =>
    failures === 0
      ? base
      : {
          ...base,
          price: { usdcUnits: fee.escalated_usdc_units, lamports: fee.escalated_lamports },
          description: `${base.description} Escalated x${fee.multiplier} for ${failures} consecutive failed scored sessions (simulate sessions and duel legs).`,
        },
  );
  return { charge, fee };
}

/**
 * Refuses a wallet suspended from duels: more consecutive failures than the runtime cap
 * (an admin may change it). Checked before any quote or payment.
 * @param fee - the wallet's fee terms
 * @throws AppError 403 wallet_suspended
 */
export function refuseIfSuspended(fee: DuelFee): void {
  if (fee.failures <= fee.suspension_cap) return;
  throw new AppError(
    403,
    'wallet_suspended',
    `This wallet is suspended from duels: its last ${fee.failures} scored sessions (simulate sessions and duel legs) failed, above the cap of ${fee.suspension_cap}. ` +
      'Pass a session (POST /api/simulate never suspends) to lift it. Nothing was charged.',
    { details: { failures: fee.failures, suspension_cap: fee.suspension_cap } },
  );
}
