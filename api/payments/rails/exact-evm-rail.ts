import type { PaymentRequirements } from '@x402/core/types';
import type { AppConfig } from '../../../shared/config';
import { UnavailableError } from '../../../shared/errors';
import type { AuthorizationRow, NewAuthorization } from '../../../shared/payments/authorization-store';
import { FacilitatorUnavailableError, type Facilitator } from '../../../shared/payments/facilitator-client';
import type { Charge } from '../charge';
import { usdcRequirement } from '../challenge';
import { decodePaymentSignature } from '../exact-evm/decode-payment-signature';
import { checkPaymentSignature, checkPaymentTerms, checkPaymentWindow } from '../exact-evm/verify-locally';
import type { PaymentHeaderName } from '../payment-header-error';
import type { PaymentClaim, Refusal } from './rail';

function storedSignature(row: AuthorizationRow): string | undefined {
  if (row.payment.rail !== 'exact-evm') return undefined;
  return (row.payment.payload as { payload?: { signature?: string } }).payload?.signature;
}

/** An x402 v2 PaymentPayload as a call carries it: base64 (the PAYMENT-SIGNATURE header) or the object itself (MCP `_meta`). */
export interface ExactEvmProof {
  source: PaymentHeaderName;
  value: string | object;
}

/**
 * Reads an x402 v2 payment (PAYMENT-SIGNATURE, or MCP `_meta["x402/payment"]`; exact scheme,
 * EIP-3009). Its key comes from the payment alone, so a retry of an authorization the service
 * already reserved finds its stored result whatever today's quote is (a loyalty step or a duel's
 * fee may have moved the price since). Only a new authorization is held to the live quote: its
 * `verify` binds it to the offered requirement (exact amount, `from` the body's wallet), checks
 * the time window and the resource, recovers the signer, and asks the facilitator.
 * @param proof - the carried payment and where it was carried
 * @param input - config, facilitator, charge, the body's wallet, the resource key and request hash
 * @returns the claim, or a refusal
 * @throws AppError 400 invalid_payment_header for a header that cannot be read
 */
export async function claimExactEvmPayment(
  proof: ExactEvmProof,
  input: { payments: AppConfig['payments']; facilitator: Facilitator; charge: Charge; wallet: string; resourceKey: string; requestHash: string },
): Promise<PaymentClaim | Refusal> {
  const requirement: PaymentRequirements | undefined = usdcRequirement(input.payments, input.charge);
  if (!requirement) return { ok: false, reason: 'unsupported_rail', message: 'This server takes only the rails listed in accepts.' };
  const payment = decodePaymentSignature(proof.value, proof.source);
  // The stored key of this authorization, if it was ever reserved: what it names, not what today's
  // requirement says. A reserved row is only ever resumed with the very same signature.
  const key = {
    network: String(payment.payload.accepted.network),
    asset: String(payment.payload.accepted.asset).toLowerCase(),
    payer: payment.authorization.from.toLowerCase(),
    nonce: payment.authorization.nonce.toLowerCase(),
  };
  return {
    ok: true,
    key,
    sameProof: (row) => storedSignature(row)?.toLowerCase() === payment.signature.toLowerCase(),
    async verify(): Promise<NewAuthorization | Refusal> {
      const bound = checkPaymentTerms(payment, requirement, input.wallet);
      if (!bound.ok) return bound;
      const late = checkPaymentWindow(payment, requirement, input.resourceKey, Math.floor(Date.now() / 1000));
      if (late) return late;
      // Our own signature check and the facilitator's verification run side by side; ours decides first.
      const [forged, verdict] = await Promise.all([
        checkPaymentSignature(payment, requirement, input.payments.evmRpcUrl),
        input.facilitator.verify(payment.payload, requirement).catch((err: unknown) => ({ failed: err })),
      ]);
      if (forged) return forged;
      if ('failed' in verdict) {
        if (!(verdict.failed instanceof FacilitatorUnavailableError)) throw verdict.failed;
        throw new UnavailableError('facilitator_unavailable', 'The payment facilitator cannot be reached; nothing was charged, retry later.', {
          headers: { 'Retry-After': '5' },
          cause: verdict.failed,
        });
      }
      if (!verdict.isValid) {
        return { ok: false, reason: verdict.invalidReason ?? 'payment_invalid', message: verdict.invalidMessage ?? 'The facilitator refused the payment.' };
      }
      return {
        network: requirement.network,
        asset: requirement.asset.toLowerCase(),
        payer: bound.payer.toLowerCase(),
        nonce: key.nonce,
        rail: 'exact-evm',
        x402Version: 2,
        resource: input.resourceKey,
        product: input.charge.product,
        tier: input.charge.tier,
        amount: requirement.amount,
        requestHash: input.requestHash,
        payment: { rail: 'exact-evm', payload: payment.payload as unknown as Record<string, unknown>, requirements: requirement as unknown as Record<string, unknown> },
      };
    },
  };
}
