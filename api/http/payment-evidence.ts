import { createHmac } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { bumpCounterOfEach, recordCallEvidence, type EvidenceCounter } from '../../shared/proof-cards/evidence-store';
import type { Logger } from '../../shared/logger';

/** The query a proof card's copyable request carries, so a paid call it led to is attributed to it. */
export const PROOF_CARD_VIA = { param: 'via', value: 'proof-card' } as const;

/**
 * The call an event belongs to, whatever the transport (the payment pipeline's exchange, or a card
 * view's request): whether it is canary traffic, whether a proof card led to it, its logger.
 */
export interface EvidenceCall {
  canary?: boolean;
  viaProofCard?: boolean;
  log: Logger;
}

/** A paid result returned to its caller, as the pipeline knows it. */
export interface DeliveredResult {
  /** What makes it one delivery: the authorization's id, or the bundle redemption's. */
  key: string;
  /** The paying wallet, as stored; only its keyed hash is kept. */
  payer: string;
  /**
   * What a delivered result of this method proves happened once (its invocation, its settlement),
   * counted with the first delivery whichever call did the step: a call that did it may have
   * delivered nothing (a pending settlement) and left it to a retry.
   */
  proves: readonly EvidenceCounter[];
}

/**
 * The proof-card evidence of the payment pipeline (interface description section 2): one hook per
 * event, called by `pay()` and its methods as the event happens, so every transport that pays
 * through `pay()` counts the same. A call's events are kept in memory as they happen and written
 * together, in one PostgreSQL statement per product, when the call delivers (`delivered`) or when
 * the pipeline is done with it (`flush`, which `payFor` runs whatever the outcome): the counts are
 * in the database before the answer leaves, and a paid call pays one round trip for its evidence,
 * not nine. A write never fails the request: a write that fails is logged and the answer goes on
 * (a process killed mid-call loses that call's counts, as it loses the call). A canary request
 * (`call.canary`) counts once, in `test_or_canary_invocations`, and nothing else it causes is counted.
 */
export interface PaymentEvidence {
  /** A paid request entered the pipeline: starts its latency clock; counts a canary request. */
  began(call: EvidenceCall, product: string): Promise<void>;
  /** An unpaid POST was answered with the 402 challenge. */
  challenged(call: EvidenceCall, product: string): Promise<void>;
  /** A request carried a signed per-call payment (the retry after the 402, or a re-send of it). */
  retried(call: EvidenceCall, product: string): Promise<void>;
  /** A new payment passed verification and was reserved (once per authorization). */
  verified(call: EvidenceCall, product: string): Promise<void>;
  /** The facilitator answered a settlement (`success`: money moved, with a transaction). */
  settled(call: EvidenceCall, product: string, success: boolean): Promise<void>;
  /** A paid result was returned; only the first return of each `key` is a delivery. */
  delivered(call: EvidenceCall, product: string, result: DeliveredResult): Promise<void>;
  /** Writes what the call counted and has not written yet; the pipeline runs it when the call ends. */
  flush(call: EvidenceCall): Promise<void>;
  /** Proof cards were served (a discovery of each); written at once. */
  viewed(call: EvidenceCall, products: readonly string[]): Promise<void>;
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
  // The counters each call bumped and has not written yet, by product.
  const pending = new WeakMap<object, Map<string, EvidenceCounter[]>>();


  const safely = async (call: EvidenceCall, event: string, write: () => Promise<unknown>): Promise<void> => {
    try {
      await write();
    } catch (err) {
      call.log.warn({ err, event }, 'proof-card evidence not recorded');
    }
  };
  const add = (call: EvidenceCall, product: string, ...counters: EvidenceCounter[]) => {
    const byProduct = pending.get(call) ?? new Map<string, EvidenceCounter[]>();
    pending.set(call, byProduct);
    byProduct.set(product, [...(byProduct.get(product) ?? []), ...counters]);
  };
  // Takes the call's unwritten counters of a product (all products when none is named).
  const take = (call: EvidenceCall, product?: string): Array<[string, EvidenceCounter[]]> => {
    const byProduct = pending.get(call);
    if (!byProduct) return [];
    const taken = [...byProduct].filter(([p]) => product === undefined || p === product);
    for (const [p] of taken) byProduct.delete(p);
    return taken;
  };
  const count = async (call: EvidenceCall, product: string, counter: EvidenceCounter) => {
    if (!call.canary) add(call, product, counter);
  };

  return {
    async began(call, product) {
      startedAt.set(call, Date.now());
      if (call.canary) add(call, product, 'test_or_canary_invocations');
    },
    challenged: (call, product) => count(call, product, 'payment_challenges'),
    retried: (call, product) => count(call, product, 'payment_retries'),
    verified: (call, product) => count(call, product, 'payment_verifications'),
    // A settlement that went through is counted once, with the first delivery of its result (see
    // DeliveredResult.proves): concurrent re-sends of one payment all wait for the same one.
    async settled(call, product, success) {
      if (!success) await count(call, product, 'payment_settlements');
    },
    async delivered(call, product, result) {
      const started = startedAt.get(call);
      const counters = take(call, product).flatMap(([, c]) => c);
      await safely(call, 'deliveries', () =>
        recordCallEvidence(dataSource, product, counters, {
          key: result.key,
          buyerHash: createHmac('sha256', deps.buyerHashKey).update(`proof-card-buyer:${result.payer}`).digest('hex'),
          latencyMs: started === undefined ? null : Date.now() - started,
          viaProofCard: call.viaProofCard === true,
          canary: call.canary === true,
          firstOnly: call.canary ? [] : result.proves,
        }),
      );
    },
    async flush(call) {
      for (const [product, counters] of take(call)) {
        await safely(call, counters.join(','), () => recordCallEvidence(dataSource, product, counters));
      }
    },
    async viewed(call, products) {
      if (call.canary) return;
      await safely(call, 'proof_discoveries', () => bumpCounterOfEach(dataSource, products, 'proof_discoveries'));
    },
  };
}
