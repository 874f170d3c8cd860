import type { DataSource, EntityManager } from 'typeorm';
import { runHotStatement, type HotStatement } from '../db/hot-statement';

/**
 * The counters of a proof card's evidence (interface description section 2, "Proof card"), plus
 * the attribution counters. Each is bumped by one event of the payment pipeline or of a card view;
 * `README.md` ("Proof cards") defines every one.
 */
export const EVIDENCE_COUNTERS = [
  'payment_challenges',
  'payment_retries',
  'successful_invocations',
  'verified_settlements',
  'payment_verifications',
  'payment_settlements',
  'deliveries',
  'second_paid_calls',
  'test_or_canary_invocations',
  'repeat_buyers',
  'proof_discoveries',
  'proof_to_successful_call',
  'proof_to_second_paid_call',
] as const;

/** One evidence counter. */
export type EvidenceCounter = (typeof EVIDENCE_COUNTERS)[number];

/** Anything that runs SQL: the DataSource, or the EntityManager of a transaction. */
interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

// Every statement that bumps counters locks their rows in counter order (ORDER BY): two calls that
// bump overlapping sets in different orders deadlock (seen at 50 concurrent paid calls once the
// statement was prepared and PostgreSQL chose a hash aggregate, whose row order varies).

/**
 * Adds one to each named counter of a product, today (UTC), in one atomic upsert: correct with any
 * number of processes, and durable as soon as it returns.
 * @param db - DataSource or transaction manager
 * @param product - catalog product id
 * @param counters - the counters to bump (a name given twice adds two)
 */
export async function bumpCounters(db: Queryable, product: string, counters: readonly EvidenceCounter[]): Promise<void> {
  if (counters.length === 0) return;
  await db.query(
    `INSERT INTO proof_card_counters (product, day, counter, n)
     SELECT $1, (now() AT TIME ZONE 'UTC')::date, c, count(*) FROM unnest($2::text[]) AS c GROUP BY c ORDER BY c
     ON CONFLICT (product, day, counter) DO UPDATE SET n = proof_card_counters.n + EXCLUDED.n`,
    [product, counters],
  );
}

/**
 * Adds one to a counter of each of several products, today (UTC), in one atomic upsert.
 * @param db - DataSource or transaction manager
 * @param products - catalog product ids (each once)
 * @param counter - the counter to bump
 */
export async function bumpCounterOfEach(db: Queryable, products: readonly string[], counter: EvidenceCounter): Promise<void> {
  if (products.length === 0) return;
  await db.query(
    `INSERT INTO proof_card_counters (product, day, counter, n)
     SELECT p, (now() AT TIME ZONE 'UTC')::date, $2, count(*) FROM unnest($1::text[]) AS p GROUP BY p ORDER BY p
     ON CONFLICT (product, day, counter) DO UPDATE SET n = proof_card_counters.n + EXCLUDED.n`,
    [products, counter],
  );
}

/**
 * A paid result returned to its caller. Only the first delivery of a key counts: it bumps
 * `deliveries`, the buyer's paid calls, `second_paid_calls` (the wallet's second or later paid
 * call on the product), `repeat_buyers` (exactly at the second) and the proof-card attribution; a
 * replay of a key already delivered changes nothing. A canary delivery is kept apart (its row only).
 */
export interface DeliveryEvent {
  /** What makes it one delivery: the authorization's id, or the bundle redemption's. */
  key: string;
  product: string;
  /** Keyed hash of the paying wallet (64 hex characters); never published. */
  buyerHash: string;
  /** From the start of the delivering request to the answer (null when unknown). */
  latencyMs: number | null;
  /** The request came from a proof card's copyable request (`?via=proof-card`). */
  viaProofCard: boolean;
  /** Canary traffic: kept apart, counted only as a canary invocation by the caller. */
  canary: boolean;
}

// Run once per paid call: prepared once per connection (see runHotStatement).
const RECORD_DELIVERED_CALL: HotStatement = {
  name: 'proof_card_record_delivered_call',
  text: `WITH delivered AS (
       INSERT INTO proof_card_deliveries (delivery_key, product, latency_ms, canary) VALUES ($3, $1, $4, $5)
       ON CONFLICT (delivery_key) DO NOTHING RETURNING delivery_key),
     buyer AS (
       INSERT INTO proof_card_buyers (product, buyer_hash, paid_calls) SELECT $1, $6, 1 FROM delivered WHERE NOT $5
       ON CONFLICT (product, buyer_hash) DO UPDATE SET paid_calls = proof_card_buyers.paid_calls + 1, last_paid_at = now()
       RETURNING paid_calls),
     counted AS (
       SELECT c FROM unnest($2::text[]) AS c
       UNION ALL SELECT c FROM unnest($8::text[]) AS c, delivered
       UNION ALL SELECT 'deliveries' FROM buyer
       UNION ALL SELECT 'second_paid_calls' FROM buyer WHERE paid_calls >= 2
       UNION ALL SELECT 'repeat_buyers' FROM buyer WHERE paid_calls = 2
       UNION ALL SELECT 'proof_to_successful_call' FROM buyer WHERE $7
       UNION ALL SELECT 'proof_to_second_paid_call' FROM buyer WHERE $7 AND paid_calls >= 2),
     bumped AS (
       INSERT INTO proof_card_counters (product, day, counter, n)
       SELECT $1, (now() AT TIME ZONE 'UTC')::date, c, count(*) FROM counted GROUP BY c ORDER BY c
       ON CONFLICT (product, day, counter) DO UPDATE SET n = proof_card_counters.n + EXCLUDED.n)
     SELECT (SELECT count(*) FROM delivered)::int AS first`,
};

/**
 * Writes everything one paid call counted for a product in ONE statement (atomic, durable when it
 * returns): the counters its pipeline steps bumped and, when it delivered, the delivery as
 * described below. One statement instead of one per event: a paid call used to
 * spend nine PostgreSQL round trips (four upserts and a five-statement transaction) on its evidence.
 * @param db - DataSource or transaction manager
 * @param product - catalog product id
 * @param counters - the counters to bump (a name given twice adds two)
 * @param delivery - the call's delivery, if it delivered; its `firstOnly` counters count only when
 *   it is the first delivery of its key (facts of the authorization, not of the call)
 * @returns whether the delivery (if any) was the first of its key
 */
export async function recordCallEvidence(
  db: DataSource | EntityManager,
  product: string,
  counters: readonly EvidenceCounter[],
  delivery?: Omit<DeliveryEvent, 'product'> & { firstOnly?: readonly EvidenceCounter[] },
): Promise<boolean> {
  if (!delivery) {
    await bumpCounters(db, product, counters);
    return false;
  }
  const rows = await runHotStatement<{ first: number }>(db, RECORD_DELIVERED_CALL, [
    product,
    counters,
    delivery.key,
    delivery.latencyMs === null ? null : Math.max(0, Math.round(delivery.latencyMs)),
    delivery.canary,
    delivery.buyerHash,
    delivery.viaProofCard,
    delivery.firstOnly ?? [],
  ]);
  return rows[0]?.first === 1;
}

/** The evidence of one product over the metrics window, as the card shows it. */
export interface ProductEvidence {
  payment_challenges: number;
  payment_retries: number;
  successful_invocations: number;
  verified_settlements: number;
  payment_verifications: number;
  payment_settlements: number;
  deliveries: number;
  second_paid_calls: number;
  test_or_canary_invocations: number;
  latency_ms: { p50: number | null; p95: number | null };
  repeat_buyers: number;
  freshest_success_at: string | null;
  attribution: { proof_discoveries: number; proof_to_successful_call: number; proof_to_second_paid_call: number };
}

/** The window the counters cover: whole UTC days, today included. */
export interface MetricsWindow {
  days: number;
  /** Start of the oldest day counted (00:00 UTC). */
  from: string;
  /** When the counts were read. */
  to: string;
  granularity: 'utc_day';
}

/** What the refresh job stores and the cards serve. */
export interface EvidenceSnapshot {
  generated_at: string;
  window: MetricsWindow;
  products: Record<string, ProductEvidence>;
}

function evidenceOf(counts: Map<string, number>, timing: TimingRow | undefined): ProductEvidence {
  const n = (c: EvidenceCounter) => counts.get(c) ?? 0;
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(Number(v)));
  return {
    payment_challenges: n('payment_challenges'),
    payment_retries: n('payment_retries'),
    successful_invocations: n('successful_invocations'),
    verified_settlements: n('verified_settlements'),
    payment_verifications: n('payment_verifications'),
    payment_settlements: n('payment_settlements'),
    deliveries: n('deliveries'),
    second_paid_calls: n('second_paid_calls'),
    test_or_canary_invocations: n('test_or_canary_invocations'),
    latency_ms: { p50: ms(timing?.p50), p95: ms(timing?.p95) },
    repeat_buyers: n('repeat_buyers'),
    freshest_success_at: timing?.freshest ? new Date(timing.freshest).toISOString() : null,
    attribution: {
      proof_discoveries: n('proof_discoveries'),
      proof_to_successful_call: n('proof_to_successful_call'),
      proof_to_second_paid_call: n('proof_to_second_paid_call'),
    },
  };
}

interface TimingRow {
  product: string;
  p50: number | null;
  p95: number | null;
  freshest: Date | null;
}

/**
 * Reads the evidence of every product over the last `windowDays` UTC days (today included).
 * Latency percentiles are over the real (non-canary) deliveries of the window; null without any.
 * `freshest_success_at` is the latest real delivery, whatever the window.
 * @param ds - DataSource
 * @param products - catalog product ids (one entry each, zeros when nothing happened)
 * @param windowDays - days in the window
 * @returns the snapshot
 */
export async function buildEvidenceSnapshot(ds: DataSource, products: readonly string[], windowDays: number): Promise<EvidenceSnapshot> {
  const [clock] = (await ds.query(`SELECT now() AS now, ((now() AT TIME ZONE 'UTC')::date - ($1::int - 1))::timestamp AT TIME ZONE 'UTC' AS since`, [
    windowDays,
  ])) as Array<{ now: Date; since: Date }>;
  const counted = (await ds.query(
    `SELECT product, counter, sum(n)::bigint AS n FROM proof_card_counters
      WHERE product = ANY($1) AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date GROUP BY product, counter`,
    [products, clock.since],
  )) as Array<{ product: string; counter: string; n: string }>;
  const timings = (await ds.query(
    `SELECT product,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE delivered_at >= $2 AND latency_ms IS NOT NULL) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE delivered_at >= $2 AND latency_ms IS NOT NULL) AS p95,
            max(delivered_at) AS freshest
       FROM proof_card_deliveries WHERE product = ANY($1) AND NOT canary GROUP BY product`,
    [products, clock.since],
  )) as TimingRow[];
  const byProduct = new Map<string, Map<string, number>>();
  for (const row of counted) {
    const counts = byProduct.get(row.product) ?? new Map<string, number>();
    counts.set(row.counter, Number(row.n));
    byProduct.set(row.product, counts);
  }
  return {
    generated_at: new Date(clock.now).toISOString(),
    window: { days: windowDays, from: new Date(clock.since).toISOString(), to: new Date(clock.now).toISOString(), granularity: 'utc_day' },
    products: Object.fromEntries(products.map((p) => [p, evidenceOf(byProduct.get(p) ?? new Map(), timings.find((t) => t.product === p))])),
  };
}

/**
 * Builds the snapshot and stores it as the one the cards serve (the maintenance job's
 * "proof-card refresh", and the web's rebuild when none is stored).
 * @param ds - DataSource
 * @param products - catalog product ids
 * @param windowDays - days in the window
 * @returns the stored snapshot
 */
export async function refreshEvidenceSnapshot(ds: DataSource, products: readonly string[], windowDays: number): Promise<EvidenceSnapshot> {
  const snapshot = await buildEvidenceSnapshot(ds, products, windowDays);
  await ds.query(
    `INSERT INTO proof_card_snapshots (singleton, generated_at, body) VALUES (true, $1, $2)
     ON CONFLICT (singleton) DO UPDATE SET generated_at = EXCLUDED.generated_at, body = EXCLUDED.body
     WHERE proof_card_snapshots.generated_at <= EXCLUDED.generated_at`,
    [snapshot.generated_at, JSON.stringify(snapshot)],
  );
  return snapshot;
}

/**
 * The stored snapshot, if any.
 * @param ds - DataSource
 * @returns the snapshot, or undefined when none was built yet
 */
export async function readEvidenceSnapshot(ds: DataSource): Promise<EvidenceSnapshot | undefined> {
  const rows = (await ds.query(`SELECT body FROM proof_card_snapshots`)) as Array<{ body: EvidenceSnapshot }>;
  return rows[0]?.body;
}
