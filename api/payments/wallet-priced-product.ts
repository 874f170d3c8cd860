import { canonicalHash } from '../../shared/payments/canonical-hash';
import type { FieldProblem } from '../../shared/errors';
import type { Product } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { Charge } from './charge';
import { quoteFor } from './loyalty';
import type { PaidCall, PaidProduct } from './paid-product';
import type { DeliveryExtras, PaidWork } from './paid-work';

/** A product sold at one price per wallet (its loyalty discount applied), as its family describes it. */
export interface WalletPricedSpec<B extends { wallet_address: string }> {
  product: Product;
  requestSchema: object;
  refine?: (fields: FieldProblem[]) => { code: string; message: string } | undefined;
  /** The body as it is hashed and worked on: defaults applied, so a request with or without them is one request. */
  withDefaults?: (sent: B) => B;
  /** Terms the product adds to the wallet's charge (the quote and the POST alike). */
  adjustCharge?: (charge: Charge) => Charge;
  /** The work the payment buys. */
  work: (body: B, call: PaidCall) => PaidWork;
  /** Fields rebuilt on every delivery from the (identical) request, never stored. */
  onDelivery?: (body: B) => DeliveryExtras;
  presentForAgent?: PaidProduct['presentForAgent'];
}

/**
 * A paid product whose price is the catalog's for its single tier, less the paying wallet's
 * loyalty discount: the GET quote and the POST's charge come from the same `quoteFor`, so a quote
 * is what a payment is held to.
 * @param deps - app dependencies
 * @param spec - the product, its schema, defaults, work and delivery extras
 * @returns the paid product
 */
export function walletPricedProduct<B extends { wallet_address: string }>(deps: AppDeps, spec: WalletPricedSpec<B>): PaidProduct {
  const { product } = spec;
  const charge = async (wallet: string | undefined): Promise<Charge> => {
    const quoted = await quoteFor(deps.dataSource, product, undefined, wallet);
    return spec.adjustCharge ? spec.adjustCharge(quoted) : quoted;
  };
  return {
    product,
    requestSchema: spec.requestSchema,
    ...(spec.refine ? { refine: spec.refine } : {}),
    quote: ({ wallet_address }) => charge(wallet_address),
    async prepare(sent, call) {
      const body = spec.withDefaults ? spec.withDefaults(sent as B) : (sent as B);
      return {
        request: {
          charge: await charge(body.wallet_address),
          wallet: body.wallet_address,
          requestHash: canonicalHash({ path: product.path, body }),
          ...(spec.onDelivery ? { onDelivery: spec.onDelivery(body) } : {}),
        },
        work: spec.work(body, call),
      };
    },
    ...(spec.presentForAgent ? { presentForAgent: spec.presentForAgent } : {}),
  };
}
