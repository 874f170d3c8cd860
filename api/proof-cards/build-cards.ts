import type { AppConfig } from '../../shared/config';
import { livePrice, type PriceSettings } from '../../shared/operators/network-config';
import type { EvidenceSnapshot, MetricsWindow, ProductEvidence } from '../../shared/proof-cards/evidence-store';
import { formatUsdc } from '../../shared/money';
import { PRODUCTS, type Product, type ProductKey } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { PROOF_CARD_VIA } from '../http/payment-evidence';
import { paysForProduct, type PaymentMethod } from '../payments/methods';
import { CARD_TEXTS } from './card-catalog';

/** A paid product this server serves, with the schema that validates its request. */
export interface CardSource {
  key: ProductKey;
  product: Product;
  /** The very object the route's `validateBody` compiles (the operation's `body`). */
  requestSchema: object;
  /** A GET on the path answers the 402 quote. */
  quotable: boolean;
}

/**
 * The paid products of the catalog that this server serves, in catalog order: a product gets a
 * card once its POST operation (and so its request schema) exists.
 * @param operations - every operation the service serves
 * @returns the sources of the cards
 */
export function cardSources(operations: readonly OperationSpec[]): CardSource[] {
  const sources: CardSource[] = [];
  for (const [key, product] of Object.entries(PRODUCTS) as Array<[ProductKey, Product]>) {
    const post = operations.find((op) => op.method === 'post' && op.path === product.path && op.body);
    if (!post?.body) continue;
    sources.push({ key, product, requestSchema: post.body, quotable: operations.some((op) => op.method === 'get' && op.path === product.path) });
  }
  return sources;
}

/** One proof card (interface description section 2, "Proof card"). */
export interface ProofCard {
  id: string;
  task: string;
  endpoint: string;
  method: 'POST';
  request_schema: object;
  realistic_example: Record<string, unknown>;
  current_price: { quoted_at: string; base_lamports: number; base_usdc_micro: number; note: string; priced_endpoint: string };
  freshness: { card_generated_at: string; metrics_window: MetricsWindow };
  evidence: ProductEvidence;
  copyable_request: { method: 'POST'; url: string; headers: Record<string, string>; body: Record<string, unknown>; curl: string };
  payment_flow: Array<{ step: number; action: string; detail: string }>;
  privacy: string;
  counting_note: string;
}

/** What a card is built with besides its product: where it is served, and the live state. */
export interface CardContext {
  /** Public origin of the API (PUBLIC_BASE_URL, or the request's). */
  origin: string;
  /** When the price was read (now: the price is live, the evidence is the snapshot's). */
  quotedAt: string;
  network: PriceSettings;
  payments: AppConfig['payments'];
  /** The payment methods this process takes: each one that pays for a product adds its step. */
  methods: readonly PaymentMethod[];
}

/** The privacy statement of every card and of the list. */
export const CARD_PRIVACY =
  'Aggregate counts only. No wallet address, payer identity, caller hash, transaction hash, token or submitted text is kept in or returned by a card. ' +
  `The example wallet is a placeholder; the attribution marker ?${PROOF_CARD_VIA.param}=${PROOF_CARD_VIA.value} names no one.`;

/** How the evidence is counted (README "Proof cards" has the long form). */
export const COUNTING_NOTE =
  'Counted as the events happen, in PostgreSQL, by the one payment pipeline (every transport that pays through it counts the same), per UTC day; ' +
  'the card sums the days of metrics_window and is refreshed by a maintenance job (freshness.card_generated_at). ' +
  'payment_challenges: unpaid POSTs answered 402. payment_retries: requests carrying a signed per-call payment (the retry after the 402, and any re-send of it). ' +
  'payment_verifications: new payments that passed verification (once per authorization). payment_settlements: settlement answers from the facilitator; ' +
  'verified_settlements: those that moved the money. successful_invocations: paid work that produced its result. ' +
  'deliveries: paid results returned, once per payment or bundle credit (a replay of a delivered result is not a new delivery). ' +
  "second_paid_calls: deliveries that were a wallet's second or later paid call on this product; repeat_buyers: wallets whose second paid call on it fell in the window. " +
  'latency_ms: p50/p95 from the start of the delivering request to the answer, over the window (null without deliveries); freshest_success_at: the latest delivery. ' +
  `attribution: proof_discoveries counts servings of this card (alone or in the list); proof_to_successful_call counts deliveries whose request carried ?${PROOF_CARD_VIA.param}=${PROOF_CARD_VIA.value} ` +
  '(as copyable_request does), proof_to_second_paid_call those of them that were a second or later paid call. ' +
  'Canary traffic (requests carrying a valid operator or admin credential) counts only in test_or_canary_invocations, once per request, and in nothing else.';

function priceNote(source: CardSource, ctx: CardContext): string {
  const { product } = source;
  const tiers = Object.keys(product.tiers);
  const others = tiers
    .filter((t) => t !== product.defaultTier)
    .map((t) => {
      const p = livePrice(product, t, ctx.network);
      // Lamports only where the legacy SOL rail is configured: elsewhere nobody can pay them.
      const sol = ctx.payments.treasury.solana ? ` / ${p.lamports} lamports` : '';
      return `${t}: ${formatUsdc(p.usdcUnits)} (${p.usdcUnits} USDC units)${sol}`;
    });
  return (
    `Base quote of the ${tiers.length > 1 ? `default tier (${product.defaultTier})` : 'product'}, read live (an admin may change the base simulation fee). ` +
    (others.length > 0 ? `Other tiers: ${others.join('; ')}. ` : '') +
    'The 402 quote of the request itself is authoritative (it may apply a loyalty discount or a surcharge). USDC units have 6 decimals.'
  );
}

function paymentFlow(source: CardSource, ctx: CardContext): ProofCard['payment_flow'] {
  const { product } = source;
  const steps: Array<[string, string]> = [
    [
      'Send copyable_request without any payment header.',
      `402 with x402Version, accepts[] and resource in the body, and the same requirement base64-encoded in PAYMENT-REQUIRED. The first accepts entry is USDC (exact scheme) on ${ctx.payments.network}.` +
        (source.quotable ? ` A GET on ${product.path} gives the same quote and never charges.` : ''),
    ],
    [
      'Sign the first accepts entry.',
      'An EIP-3009 TransferWithAuthorization for exactly its amount to its payTo, signed by wallet_address; the wallet needs USDC and no gas token (the facilitator submits it).',
    ],
    [
      'Retry the same request once with PAYMENT-SIGNATURE.',
      'base64 of JSON: x402Version 2, resource {url}, accepted (the entry), payload (the signed authorization). The payment is verified and reserved before any work; it settles only after the result exists.',
    ],
    ['Read the result.', '200 with the result; PAYMENT-RESPONSE (and X-PAYMENT-RESPONSE) carries the settlement receipt {success, transaction, network, payer}.'],
    [
      'If the answer was lost, retry with the same authorization and the exact same request.',
      'The stored result is replayed (X-Payment-Replayed: true) and nothing is charged again; the same authorization with another request is 409 payment_already_used. Never sign a replacement payment.',
    ],
  ];
  for (const method of ctx.methods) {
    if (method.cardStep && paysForProduct(method, product)) steps.push([method.cardStep.action, method.cardStep.detail]);
  }
  return steps.map(([action, detail], i) => ({ step: i + 1, action, detail }));
}

function curlOf(url: string, body: object): string {
  const json = JSON.stringify(body).replace(/'/g, `'\\''`);
  return `curl -i -X POST '${url}' -H 'Content-Type: application/json' -d '${json}'`;
}

/**
 * Builds one card.
 * @param source - the product and its request schema
 * @param snapshot - the evidence snapshot the card serves
 * @param ctx - origin, time and live configuration
 * @returns the card
 */
export function buildCard(source: CardSource, snapshot: EvidenceSnapshot, ctx: CardContext): ProofCard {
  const { product } = source;
  const text = CARD_TEXTS[source.key];
  const price = livePrice(product, product.defaultTier, ctx.network);
  const url = `${ctx.origin}${product.path}?${PROOF_CARD_VIA.param}=${PROOF_CARD_VIA.value}`;
  const headers = { 'Content-Type': 'application/json' };
  return {
    id: product.id,
    task: text.task,
    endpoint: product.path,
    method: product.method,
    request_schema: source.requestSchema,
    realistic_example: text.realisticExample,
    current_price: {
      quoted_at: ctx.quotedAt,
      base_lamports: price.lamports,
      base_usdc_micro: price.usdcUnits,
      note: priceNote(source, ctx),
      priced_endpoint: `${product.method} ${product.path}`,
    },
    freshness: { card_generated_at: snapshot.generated_at, metrics_window: snapshot.window },
    evidence: snapshot.products[product.id] ?? emptyEvidence(),
    copyable_request: { method: product.method, url, headers, body: text.realisticExample, curl: curlOf(url, text.realisticExample) },
    payment_flow: paymentFlow(source, ctx),
    privacy: CARD_PRIVACY,
    counting_note: COUNTING_NOTE,
  };
}

// A product the snapshot predates (added since the last refresh): nothing counted yet.
function emptyEvidence(): ProductEvidence {
  return {
    payment_challenges: 0,
    payment_retries: 0,
    successful_invocations: 0,
    verified_settlements: 0,
    payment_verifications: 0,
    payment_settlements: 0,
    deliveries: 0,
    second_paid_calls: 0,
    test_or_canary_invocations: 0,
    latency_ms: { p50: null, p95: null },
    repeat_buyers: 0,
    freshest_success_at: null,
    attribution: { proof_discoveries: 0, proof_to_successful_call: 0, proof_to_second_paid_call: 0 },
  };
}

/** The card list (GET /api/proof-cards). */
export interface ProofCardList {
  generated_at: string;
  cards: ProofCard[];
  corpus_evidence: { url: string; page: string; scope: string };
  privacy: string;
}

/**
 * Builds the list of every card.
 * @param sources - the served paid products
 * @param snapshot - the evidence snapshot
 * @param ctx - origin, time and live configuration
 * @returns the list
 */
export function buildCardList(sources: readonly CardSource[], snapshot: EvidenceSnapshot, ctx: CardContext): ProofCardList {
  return {
    generated_at: snapshot.generated_at,
    cards: sources.map((s) => buildCard(s, snapshot, ctx)),
    corpus_evidence: {
      url: `${ctx.origin}/api/corpus/evidence`,
      page: `${ctx.origin}/api/openapi.json#/paths/~1api~1corpus~1evidence`,
      scope:
        'Aggregate evidence of the consented free-tier corpus only (POST /api/score with data_consent: true). Paid calls never enter it, and the cards\u2019 evidence does not come from it.',
    },
    privacy: CARD_PRIVACY,
  };
}
