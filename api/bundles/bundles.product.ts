import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import { createPurchaseBundle, mintPurchaseToken } from '../payments/bundle-credit/bundle-store';
import { walletKey } from '../payments/bundle-credit/wallet-key';
import type { PaidProduct } from '../payments/paid-product';
import type { DeliveryExtras } from '../payments/paid-work';
import { checkReferralCode, normalizeReferralCode, referralAfterSettlement, referralBeforeSettlement } from '../payments/referral-check';
import { bundleCharge, planTerms, type PurchasePlan } from './bundle-plans';
import { bundleQuoteQuerySchema, bundleRequestSchema, type BundleRequest } from './bundles.schema';
import { TOKEN_PENDING_NOTE, TOKEN_SHOWN_NOTE, presentPurchase } from './present-bundle';
import { BUNDLE_CLAIM_HEADER, isBuyerClaim } from './token-claim';

/**
 * The prepaid bundle purchase as every transport sells it: the plan's charge, the referral code
 * checked before payment, the token minted once at the first delivery.
 * @param deps - app dependencies
 * @returns the paid product
 */
export function bundleProduct(deps: AppDeps): PaidProduct {
  const { dataSource } = deps;
  return {
    product: PRODUCTS.bundle,
    requestSchema: bundleRequestSchema,
    quoteQuerySchema: bundleQuoteQuerySchema,
    quote: async ({ tier }) => bundleCharge((tier ?? PRODUCTS.bundle.defaultTier) as PurchasePlan),
    async prepare(sent, call) {
      const body = sent as BundleRequest;
      const plan = body.plan ?? 'bundle';
      const code = normalizeReferralCode(body.referral_code ?? '');
      // A no-wallet request gets the quote (the pipeline), so its code is checked when a wallet comes.
      const intent = code && body.wallet_address !== undefined ? await checkReferralCode(dataSource, walletKey(body.wallet_address), code) : undefined;
      const request = { ...body, plan, referral_code: code };

      const claim = call.header(BUNDLE_CLAIM_HEADER);
      const onDelivery: DeliveryExtras = async (authorization, delivery) => {
        const extras: Record<string, unknown> = {};
        // The token goes, once, to the request that made the payment or to one that proves it comes
        // from the payer; never to a replay rebuilt from the public chain.
        if (delivery.first || (await isBuyerClaim(authorization, claim, deps.config.payments.evmRpcUrl))) {
          const minted = await mintPurchaseToken(dataSource, authorization.id);
          if (minted) Object.assign(extras, { bundle_token: minted.token, token_note: TOKEN_SHOWN_NOTE });
        }
        try {
          const stored = (authorization.response as { referral?: Record<string, unknown> } | null)?.referral;
          if (stored) extras.referral = await referralAfterSettlement(dataSource, authorization.id, stored);
        } catch (err) {
          // The minted token must still reach the buyer; rewards stay pending or recoverable.
          call.log.error({ err }, 'referral delivery failed');
        }
        return extras;
      };

      return {
        request: {
          charge: bundleCharge(plan),
          wallet: body.wallet_address,
          requestHash: canonicalHash({ path: PRODUCTS.bundle.path, body: request }),
          onDelivery,
          nonFinalNote: { token_note: TOKEN_PENDING_NOTE },
        },
        async work(paid) {
          if (paid.authorizationId === null) throw new Error('a bundle is bought per call only');
          const created = await createPurchaseBundle(dataSource, {
            wallet: paid.payer,
            plan,
            credits: planTerms(plan).credits,
            authorizationId: paid.authorizationId,
          });
          const response = presentPurchase({
            bundle: created,
            resultId: paid.resultId,
            referral: intent && referralBeforeSettlement(intent),
          });
          return {
            response,
            // A purchase scores nothing: the ledger row has no profile or score.
            summary: { profile: null, score: null, passed: null, scorerVersion: 'none', referralCode: intent?.eligible ? code : null },
            calibrationText: null,
          };
        },
      };
    },
  };
}
