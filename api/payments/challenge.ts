import type { PaymentRequirements } from '@x402/core/types';
import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { AppConfig } from '../../shared/config';
import { UnavailableError } from '../../shared/errors';
import { SOL_ASSET } from '../../shared/products';
import type { Charge } from './charge';
import { requestOrigin } from '../http/public-origin';

/** The x402 version this service speaks by default (PAYMENT-SIGNATURE / PAYMENT-RESPONSE). */
export const X402_VERSION = 2;

/**
 * The USDC requirement of a charge: the exact scheme on the configured network, the amount in
 * atomic units, the treasury, and the token's EIP-712 domain in `extra`. Built from config alone,
 * so the 402 and the paid retry see byte-identical requirements.
 * @param payments - the `payments` section of the config
 * @param charge - what is being bought
 * @returns the requirement, or undefined when no EVM treasury is configured
 */
export function usdcRequirement(payments: AppConfig['payments'], charge: Charge): PaymentRequirements | undefined {
  if (!payments.treasury.evm) return undefined;
  return {
    scheme: 'exact',
    network: payments.network as PaymentRequirements['network'],
    amount: String(charge.price.usdcUnits),
    asset: payments.usdcAsset,
    payTo: payments.treasury.evm,
    maxTimeoutSeconds: payments.maxTimeoutSeconds,
    extra: { name: payments.usdcName, version: payments.usdcVersion },
  };
}

/** The 402 challenge: the JSON body (v2 shape readable by v1 clients) and the v2 header. */
export interface Challenge {
  body: Record<string, unknown>;
  /** base64 of the v2 PaymentRequired, for the `PAYMENT-REQUIRED` header. */
  header: string;
}

/**
 * Builds the payment challenge of a charge. The body lists the USDC requirement first (v2 fields
 * plus the v1 `maxAmountRequired`, `resource`, `description` and `mimeType`), then the legacy SOL
 * requirement in lamports (paid with `X-PAYMENT`); the `PAYMENT-REQUIRED` header carries the
 * standard v2 object with the USDC requirement only (SOL is not an x402 v2 scheme here).
 * @param payments - the `payments` section of the config
 * @param charge - what is being bought
 * @param resourceUrl - absolute URL of the paid resource
 * @param error - why payment is required (`payment_required`, or a verification failure reason)
 * @param extensions - x402 v2 extensions the challenge declares (the Bazaar discovery extension), in the body and the header
 * @returns the challenge
 * @throws UnavailableError payments_not_configured when no treasury is configured
 */
export function buildChallenge(payments: AppConfig['payments'], charge: Charge, resourceUrl: string, error: string, extensions?: Record<string, unknown>): Challenge {
  const usdc = usdcRequirement(payments, charge);
  if (!usdc && !payments.treasury.solana) {
    throw new UnavailableError('payments_not_configured', 'Paid calls are not configured on this server (no treasury address).');
  }
  const resource = { url: resourceUrl, description: charge.description, mimeType: 'application/json' };
  const v1Fields = { resource: resourceUrl, description: charge.description, mimeType: 'application/json' };
  const accepts: Record<string, unknown>[] = [];
  if (usdc) accepts.push({ ...usdc, maxAmountRequired: usdc.amount, ...v1Fields });
  if (payments.treasury.solana) {
    const lamports = String(charge.price.lamports);
    accepts.push({
      scheme: 'exact',
      network: payments.legacyNetwork,
      amount: lamports,
      maxAmountRequired: lamports,
      asset: SOL_ASSET,
      payTo: payments.treasury.solana,
      maxTimeoutSeconds: payments.maxTimeoutSeconds,
      ...v1Fields,
      extra: {
        unit: 'lamports',
        x402Version: 1,
        header: 'X-PAYMENT',
        payment: 'Send at least this many lamports to payTo, wait until the transaction is finalized, then retry with X-PAYMENT: base64 of {"x402Version":1,"scheme":"exact","network":"' +
          payments.legacyNetwork +
          '","payload":{"signature":"<transaction signature>","payer":"<wallet_address>"}} within maxTimeoutSeconds of the transfer.',
      },
    });
  }
  // Which discount the live quote applied, beside the requirements (interface description section 8).
  const declared = extensions ? { extensions } : {};
  const body = { x402Version: X402_VERSION, error, resource, accepts, ...declared, ...(charge.discount ? { discount: charge.discount } : {}), ...charge.note };
  const header = encodePaymentRequiredHeader({ x402Version: X402_VERSION, error, resource, accepts: usdc ? [usdc] : [], ...declared });
  return { body, header };
}

/**
 * The absolute URL of the paid resource: the configured public origin, or the request's own
 * (protocol and Host; Koa 3's `ctx.origin` is the client's Origin header, not ours).
 * @param payments - the `payments` section of the config
 * @param request - the request's protocol, Host and path (a Koa context)
 * @returns the URL
 */
export function resourceUrlFor(payments: AppConfig['payments'], request: { protocol: string; host: string; path: string }): string {
  return `${requestOrigin(payments, request)}${request.path}`;
}
