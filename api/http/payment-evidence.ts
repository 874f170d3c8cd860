import { createHmac } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { bumpCounterOfEach, bumpCounters, recordDelivery, type EvidenceCounter } from '../../shared/proof-cards/evidence-store';
import type { AppContext } from './context';

/** The query a proof card's copyable request carries, so a paid call it led to is attributed to it. */
export const PROOF_CARD_VIA = { param: 'via', value: 'proof-card' } as const;

/** A paid result returned to its caller, as the pipeline knows it. */
export interface DeliveredResult {
  /** What makes it one delivery: the authorization's id, or the bundle redemption's. */
  key: string;
  /** The paying wallet, as stored; only its keyed hash is kept. */
  payer: string;
}

/**
 * The proof-card evidence of the payment pipeline (interface description section 2): one hook per
 * event, called by `pay()` and its methods as the event happens, so every transport that pays
 * through `pay()` counts the same. Each hook writes through at once (PostgreSQL, atomic upserts)
 * and never fails the request: a write that fails is logged and the answer goes on. A canary
 * request (`ctx.state.canary`) counts once, in `test_or_canary_invocations`, when it enters the
 * pipeline, and nothing else it causes is counted.
 */
export interface PaymentEvidence {
  /** A paid request entered the pipeline: starts its latency clock; counts a canary request. */
  began(ctx: AppContext, product: string): Promise<void>;
  /** An unpaid POST was answered with the 402 challenge. */
  challenged(ctx: AppContext, product: string): Promise<void>;
  /** A request carried a signed per-call payment (the retry after the 402, or a re-send of it). */
  retried(ctx: AppContext, product: string): Promise<void>;
  /** A new payment passed verification and was reserved (once per authorization). */
  verified(ctx: AppContext, product: string): Promise<void>;
  /** The facilitator answered a settlement (`success`: money moved, with a transaction). */
  settled(ctx: AppContext, product: string, success: boolean): Promise<void>;
  /** The paid work produced its result (once per payment or credit). */
  invoked(ctx: AppContext, product: string): Promise<void>;
  /** A paid result was returned; only the first return of each `key` is a delivery. */
  delivered(ctx: AppContext, product: string, result: DeliveredResult): Promise<void>;
  /** Proof cards were served (a discovery of each). */
  viewed(ctx: AppContext, products: readonly string[]): Promise<void>;
}

/**
 * Builds the evidence recorder over PostgreSQL.
 * @param deps - DataSource, and the key of the payer hash (CALLER_HASH_KEY: a wallet address is
 *   public on chain, so an unkeyed hash could be reversed by trying every known address)
 * @returns the recorder
 */
export function createPaymentEvidence(deps: { dataSource: DataSource; buyerHashKey: string }): PaymentEvidence {
  const { dataSource } = deps;
  const startedAt = new WeakMap<object, number>();

  const safely = async (ctx: AppContext, event: string, write: () => Promise<unknown>): Promise<void> => {
    try {
      await write();
    } catch (err) {
      ctx.state.log.warn({ err, event }, 'proof-card evidence not recorded');
    }
  };
  const count = (ctx: AppContext, product: string, counter: EvidenceCounter) =>
    ctx.state.canary ? Promise.resolve() : safely(ctx, counter, () => bumpCounters(dataSource, product, [counter]));

  return {
    async began(ctx, product) {
      startedAt.set(ctx, Date.now());
      if (ctx.state.canary) await safely(ctx, 'test_or_canary_invocations', () => bumpCounters(dataSource, product, ['test_or_canary_invocations']));
    },
    challenged: (ctx, product) => count(ctx, product, 'payment_challenges'),
    retried: (ctx, product) => count(ctx, product, 'payment_retries'),
    verified: (ctx, product) => count(ctx, product, 'payment_verifications'),
    async settled(ctx, product, success) {
      if (ctx.state.canary) return;
      await safely(ctx, 'payment_settlements', () => bumpCounters(dataSource, product, success ? ['payment_settlements', 'verified_settlements'] : ['payment_settlements']));
    },
    invoked: (ctx, product) => count(ctx, product, 'successful_invocations'),
    async delivered(ctx, product, result) {
      const started = startedAt.get(ctx);
      await safely(ctx, 'deliveries', () =>
        recordDelivery(dataSource, {
          key: result.key,
          product,
          buyerHash: createHmac('sha256', deps.buyerHashKey).update(`proof-card-buyer:${result.payer}`).digest('hex'),
          latencyMs: started === undefined ? null : Date.now() - started,
          viaProofCard: ctx.query[PROOF_CARD_VIA.param] === PROOF_CARD_VIA.value,
          canary: ctx.state.canary === true,
        }),
      );
    },
    async viewed(ctx, products) {
      if (ctx.state.canary) return;
      await safely(ctx, 'proof_discoveries', () => bumpCounterOfEach(dataSource, products, 'proof_discoveries'));
    },
  };
}
