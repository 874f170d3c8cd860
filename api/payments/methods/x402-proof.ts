import { AppError } from '../../../shared/errors';
import type { AppDeps } from '../../http/deps';
import type { MethodRequest } from '../paid-work';
import type { CallProofs, PaymentExchange } from '../payment-exchange';
import { claimExactEvmPayment, type ExactEvmProof } from '../rails/exact-evm-rail';
import { claimLegacySolPayment } from '../rails/legacy-sol-rail';
import type { PaymentClaim, Refusal } from '../rails/rail';

// How the x402 method finds the payment a call carries and the rail it is on; the pipeline's
// steps after that are in x402.method.ts.

/** The `_meta` key of an x402 PaymentPayload on an MCP tool call (the x402 MCP transport's). */
export const MCP_PAYMENT_META_KEY = 'x402/payment';

/** What an x402 call carries: a v2 payment, or the legacy SOL header or body field. */
export interface X402Proof {
  /** An x402 v2 PaymentPayload. */
  v2?: ExactEvmProof;
  /** The legacy `X-PAYMENT` header (x402 v1, SOL). */
  legacyHeader?: string;
  /** A legacy `tx_hash` from the validated request body. */
  txHash?: unknown;
}

type ClaimInput = Parameters<typeof claimLegacySolPayment>[1];

/** One rail of the x402 method: whether a proof is on it, and how its claim is read. */
interface Rail {
  name: string;
  carries(proof: X402Proof): boolean;
  claim(proof: X402Proof, input: ClaimInput, deps: AppDeps): Promise<PaymentClaim | Refusal | undefined> | PaymentClaim | Refusal | undefined;
}

// The rails the x402 method pays on, in the order the challenge's accepts lists them.
const RAILS: readonly Rail[] = [
  {
    name: 'PAYMENT-SIGNATURE (x402 v2)',
    carries: (p) => p.v2 !== undefined,
    claim: (p, input, deps) => claimExactEvmPayment(p.v2!, { ...input, facilitator: deps.facilitator }),
  },
  {
    name: 'X-PAYMENT (legacy)',
    carries: (p) => p.legacyHeader !== undefined,
    claim: (p, input) => claimLegacySolPayment({ header: p.legacyHeader! }, input),
  },
  {
    // The oldest form, a SOL transaction id in the body, is read only when no header pays.
    name: 'tx_hash (legacy)',
    carries: (p) => p.txHash !== undefined && p.v2 === undefined && p.legacyHeader === undefined,
    claim: (p, input) => claimLegacySolPayment({ body: { tx_hash: p.txHash, wallet_address: input.wallet } }, input),
  },
];

/**
 * The x402 proof a call carries, on HTTP or MCP.
 * @param proofs - the call's headers, `_meta` and body
 * @returns the proof, or undefined when no rail carries one
 */
export function readX402Proof(proofs: CallProofs): X402Proof | undefined {
  const signature = proofs.header('payment-signature');
  const meta = proofs.meta(MCP_PAYMENT_META_KEY);
  const v2: X402Proof['v2'] = signature
    ? { source: 'PAYMENT-SIGNATURE', value: signature }
    : // The object itself; a string is read as the base64 header form.
      meta !== undefined && meta !== null
      ? { source: '_meta["x402/payment"]', value: meta as string | object }
      : undefined;
  const proof: X402Proof = { v2, legacyHeader: proofs.header('x-payment') || undefined, txHash: proofs.body?.tx_hash };
  return RAILS.some((rail) => rail.carries(proof)) ? proof : undefined;
}


/**
 * The claim of the rail the payment is on; none (answer the quote) when nothing usable is carried.
 * @param proof - what the call carries
 * @param exchange - the call (its resource)
 * @param deps - app dependencies (payments config, facilitator)
 * @param request - charge, wallet, request hash
 * @returns the claim, a refusal, or undefined
 * @throws AppError 400 ambiguous_payment when two rails are carried
 */
export async function readPaymentClaim(proof: X402Proof, exchange: PaymentExchange, deps: AppDeps, request: MethodRequest): Promise<PaymentClaim | Refusal | undefined> {
  const rails = RAILS.filter((rail) => rail.carries(proof));
  if (rails.length > 1) throw new AppError(400, 'ambiguous_payment', `Send one payment: ${rails.map((r) => r.name).join(' or ')}, not both.`);
  if (rails.length === 0) return undefined;
  const input = { payments: deps.config.payments, charge: request.charge, wallet: request.wallet, resourceKey: exchange.resource.key, requestHash: request.requestHash };
  return rails[0]!.claim(proof, input, deps);
}
