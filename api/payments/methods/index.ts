import { bundleCreditMethod } from './bundle-credit.method';
import type { PaymentMethod } from './payment-method';
import { x402Method } from './x402.method';

export type { MethodHeader, PaymentMethod } from './payment-method';
export { paysForProduct } from './payment-method';

/**
 * Every way the service takes payment. A new method (card-pack credits, company tokens) is its own
 * file implementing `PaymentMethod` and one more line here; nothing else names it.
 */
export const PAYMENT_METHODS: readonly PaymentMethod[] = [bundleCreditMethod as PaymentMethod, x402Method as PaymentMethod];

/**
 * The request headers that carry a payment secret (a signature, a bearer token): the logs redact them.
 * @param methods - the payment methods
 * @returns the header names
 */
export function secretHeaderNames(methods: readonly PaymentMethod[]): string[] {
  return methods.flatMap((m) => m.headers.filter((h) => h.secret).map((h) => h.name));
}
