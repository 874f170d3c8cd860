import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import { quoteFor } from '../payments/loyalty';
import type { PaidProduct } from '../payments/paid-product';
import { scriptCheckRequestSchema, type ScriptCheckRequest } from './script-check.schema';
import { runScriptCheck } from './script-check.service';

/**
 * The script check as every transport sells it (the live quote for the wallet).
 * @param deps - app dependencies
 * @returns the paid product
 */
export function scriptCheckProduct(deps: AppDeps): PaidProduct {
  const product = PRODUCTS.scriptCheck;
  return {
    product,
    requestSchema: scriptCheckRequestSchema,
    refine: (fields) =>
      fields.some((f) => f.path === '' && f.rule === 'anyOf')
        ? { code: 'validation_failed', message: 'Send approved_facts, source_text or both: the reply is checked against them; see details.fields.' }
        : undefined,
    quote: ({ wallet_address }) => quoteFor(deps.dataSource, product, undefined, wallet_address),
    async prepare(sent, call) {
      const body = sent as ScriptCheckRequest;
      return {
        request: {
          charge: await quoteFor(deps.dataSource, product, undefined, body.wallet_address),
          wallet: body.wallet_address,
          requestHash: canonicalHash({ path: product.path, body }),
        },
        work: (paid) => runScriptCheck(deps, body, paid, call.reqId),
      };
    },
  };
}
