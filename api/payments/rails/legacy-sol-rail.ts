import { address } from '@solana/kit';
import type { AppConfig } from '../../../shared/config';
import type { NewAuthorization } from '../../../shared/payments/authorization-store';
import type { Charge } from '../charge';
import { SOL_ASSET } from '../../../shared/products';
import { decodeSolPaymentHeader, solPaymentFromBody, verifySolTransfer, type LegacySolPayment } from '../sol';
import type { PaymentClaim, Refusal } from './rail';

// One deadline for both RPC reads of a verification.
const SOLANA_RPC_TIMEOUT_MS = 8_000;
// On top of maxTimeoutSeconds: finalization (about 13 s on Solana) and clock skew between the
// validators' block time and ours.
const AGE_SLACK_SECONDS = 60;

/**
 * Reads a legacy SOL payment (x402 v1): the `X-PAYMENT` header, or `tx_hash` + `wallet_address`
 * in the body. The proof is a finalized transfer the payer already made; its `verify` checks it
 * read-only against the Solana JSON-RPC endpoint (at least the lamport price to the treasury,
 * from the payer). The transaction signature is the nonce: each transfer pays for one request.
 * @param source - the header value, or the body's legacy fields
 * @param input - config, charge, the body's wallet, the resource key and request hash
 * @returns the claim, a refusal, or undefined when the request carries no legacy payment
 * @throws AppError 400 invalid_payment_header / 422 for proofs that cannot be read
 */
export function claimLegacySolPayment(
  source: { header: string } | { body: { tx_hash?: unknown; wallet_address?: unknown } },
  input: { payments: AppConfig['payments']; charge: Charge; wallet: string; resourceKey: string; requestHash: string },
): PaymentClaim | Refusal | undefined {
  const { payments } = input;
  const proof: LegacySolPayment | null =
    'header' in source ? decodeSolPaymentHeader(source.header, payments.legacyNetwork) : solPaymentFromBody(source.body, payments.legacyNetwork);
  if (!proof) return undefined;
  if (!payments.treasury.solana) return { ok: false, reason: 'unsupported_rail', message: 'This server takes only the rails listed in accepts.' };
  if (proof.payload.payer !== input.wallet) {
    return { ok: false, reason: 'wallet_address_mismatch', message: 'wallet_address must be the payer of the SOL transfer.' };
  }
  const treasury = address(payments.treasury.solana);
  const key = { network: payments.legacyNetwork, asset: SOL_ASSET, payer: proof.payload.payer, nonce: proof.payload.signature };
  return {
    ok: true,
    key,
    // The transaction signature is both the proof and the key.
    sameProof: () => true,
    async verify(): Promise<NewAuthorization | Refusal> {
      const verdict = await verifySolTransfer({
        rpcUrl: payments.solanaRpcUrl,
        timeoutMs: SOLANA_RPC_TIMEOUT_MS,
        signature: proof.payload.signature,
        payer: proof.payload.payer,
        treasury,
        minLamports: input.charge.price.lamports,
        // The 402 offers maxTimeoutSeconds for the SOL entry too: an older transfer cannot pay.
        oldestBlockTime: Math.floor(Date.now() / 1000) - payments.maxTimeoutSeconds - AGE_SLACK_SECONDS,
      });
      if (!verdict.ok) return verdict;
      return {
        ...key,
        rail: 'sol-transfer',
        x402Version: 1,
        resource: input.resourceKey,
        product: input.charge.product,
        tier: input.charge.tier,
        amount: verdict.lamports.toString(),
        requestHash: input.requestHash,
        payment: { rail: 'sol-transfer', signature: verdict.signature, lamports: verdict.lamports.toString(), slot: Number(verdict.slot) },
      };
    },
  };
}
