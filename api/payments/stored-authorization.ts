import { findAuthorization, type AuthorizationRow } from '../../shared/payments/authorization-store';
import type { AppDeps } from '../http/deps';
import { decodePaymentSignature } from './exact-evm/decode-payment-signature';
import type { PaidCall } from './paid-product';

/**
 * The stored authorization of a call's x402 payment when it was already reserved for this very
 * request: a retry of a lost or ambiguous paid response, over HTTP (PAYMENT-SIGNATURE) or MCP
 * (`_meta["x402/payment"]`). A product whose quote or refusals depend on state that its own
 * delivery changed (a duel it resolved, a fee its verdict escalated) answers such a retry from the
 * stored authorization instead of from the state now.
 * @param call - the paid call (its undecoded x402 payment)
 * @param deps - app dependencies
 * @param requestHash - the request's canonical hash
 * @returns the row, or undefined (no payment, an unreadable one, a new payment, another request)
 */
export async function storedAuthorizationOf(call: Pick<PaidCall, 'x402Payment'>, deps: AppDeps, requestHash: string): Promise<AuthorizationRow | undefined> {
  if (call.x402Payment === undefined) return undefined;
  let from: string;
  let nonce: string;
  try {
    const payment = decodePaymentSignature(call.x402Payment);
    from = payment.authorization.from;
    nonce = payment.authorization.nonce;
  } catch {
    return undefined; // the pipeline answers an unreadable payment
  }
  const { payments } = deps.config;
  const row = await findAuthorization(deps.dataSource, { network: payments.network, asset: payments.usdcAsset.toLowerCase(), payer: from.toLowerCase(), nonce: nonce.toLowerCase() });
  return row?.requestHash === requestHash ? row : undefined;
}
