import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { PaidProduct } from '../payments/paid-product';
import { walletPricedProduct } from '../payments/wallet-priced-product';
import { scriptCheckRequestSchema, type ScriptCheckRequest } from './script-check.schema';
import { runScriptCheck } from './script-check.service';

/**
 * The script check as every transport sells it (the live quote for the wallet).
 * @param deps - app dependencies
 * @returns the paid product
 */
export function scriptCheckProduct(deps: AppDeps): PaidProduct {
  return walletPricedProduct<ScriptCheckRequest>(deps, {
    product: PRODUCTS.scriptCheck,
    requestSchema: scriptCheckRequestSchema,
    refine: (fields) =>
      fields.some((f) => f.path === '' && f.rule === 'anyOf')
        ? { code: 'validation_failed', message: 'Send approved_facts, source_text or both: the reply is checked against them; see details.fields.' }
        : undefined,
    work: (body, call) => (paid) => runScriptCheck(deps, body, paid, call.reqId),
  });
}
