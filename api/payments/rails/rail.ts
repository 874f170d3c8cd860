import type { AuthorizationKey, AuthorizationRow, NewAuthorization } from '../../../shared/payments/authorization-store';

import type { Refusal } from '../refusal';

export type { Refusal };

/**
 * A payment proof read from the request and bound to the body's wallet, not yet reserved. Each
 * rail (x402 v2 exact EVM, legacy SOL) supplies one.
 */
export interface PaymentClaim {
  ok: true;
  /** The unique key its reservation takes. */
  key: AuthorizationKey;
  /** Whether a stored authorization with the same key is this very proof (a replay), not a reuse. */
  sameProof(row: AuthorizationRow): boolean;
  /** Full verification of a new proof (time, resource, chain or facilitator): the reservation to make, or why not. */
  verify(): Promise<NewAuthorization | Refusal>;
}
