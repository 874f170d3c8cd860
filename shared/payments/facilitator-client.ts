import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { SettleError, VerifyError } from '@x402/core/types';
import type { AppConfig } from '../config';

/** The facilitator could not be asked (down, timing out, or answering garbage): nothing was decided. */
export class FacilitatorUnavailableError extends Error {
  /**
   * @param operation - verify or settle
   * @param cause - the transport fault
   */
  constructor(operation: 'verify' | 'settle', cause: unknown) {
    super(`facilitator ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'FacilitatorUnavailableError';
  }
}

/** The two facilitator calls the service makes, with transport faults told apart from answers. */
export interface Facilitator {
  /** @throws FacilitatorUnavailableError when no answer came */
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  /** @throws FacilitatorUnavailableError when no answer came */
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

/**
 * The x402 facilitator client of the official package, wrapped so that a refusal (an answer with
 * `isValid: false` or `success: false`) is returned, and only a transport fault throws. A settle
 * answer with a 5xx status is a server fault, whatever its body says: it counts as no answer,
 * since the transfer may have happened before the fault.
 * @param payments - the `payments` section of the config (URL and timeout)
 * @returns the facilitator
 */
export function createFacilitator(payments: Pick<AppConfig['payments'], 'facilitatorUrl' | 'facilitatorTimeoutMs'>): Facilitator {
  const client = new HTTPFacilitatorClient({ url: payments.facilitatorUrl, timeoutMs: payments.facilitatorTimeoutMs });
  return {
    async verify(payload, requirements) {
      try {
        return await client.verify(payload, requirements);
      } catch (err) {
        if (err instanceof VerifyError) {
          return { isValid: false, invalidReason: err.invalidReason ?? 'verify_failed', invalidMessage: err.invalidMessage, payer: err.payer };
        }
        throw new FacilitatorUnavailableError('verify', err);
      }
    },
    async settle(payload, requirements) {
      try {
        return await client.settle(payload, requirements);
      } catch (err) {
        if (err instanceof SettleError && err.statusCode < 500) {
          return {
            success: false,
            errorReason: err.errorReason ?? 'settle_failed',
            errorMessage: err.errorMessage,
            payer: err.payer,
            transaction: err.transaction ?? '',
            network: err.network,
          };
        }
        throw new FacilitatorUnavailableError('settle', err);
      }
    },
  };
}
