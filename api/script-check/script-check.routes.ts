import Router from '@koa/router';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { quoteFor } from '../payments/loyalty';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { scriptCheckRequestSchema, type ScriptCheckRequest } from './script-check.schema';
import { runScriptCheck } from './script-check.service';

/**
 * The paid script-check routes: validate, build the charge (the live quote for the wallet),
 * pay, present. GET answers the base quote and never settles.
 * @param deps - app dependencies
 * @returns the router
 */
export function scriptCheckRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.scriptCheck;

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, await quoteFor(deps.dataSource, product, undefined, undefined));
  });

  router.post(
    product.path,
    validateBody(scriptCheckRequestSchema, {
      refine: (fields) =>
        fields.some((f) => f.path === '' && f.rule === 'anyOf')
          ? { code: 'validation_failed', message: 'Send approved_facts, source_text or both: the reply is checked against them; see details.fields.' }
          : undefined,
    }),
    async (ctx: AppContext) => {
      const body = ctx.state.body as ScriptCheckRequest;
      await pay(
        ctx,
        deps,
        {
          charge: await quoteFor(deps.dataSource, product, undefined, body.wallet_address),
          wallet: body.wallet_address,
          requestHash: canonicalHash({ path: ctx.path, body }),
        },
        (paid) => runScriptCheck(deps, body, paid, ctx.state.reqId),
      );
    },
  );

  return router;
}
