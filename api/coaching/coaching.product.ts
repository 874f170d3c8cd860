import { findPack } from '../../shared/coaching/packs';
import { AppError } from '../../shared/errors';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS, PRODUCT_TERMS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import { quoteFor } from '../payments/loyalty';
import type { PaidCall, PaidProduct } from '../payments/paid-product';
import type { DeliveryExtras } from '../payments/paid-work';
import { storedAuthorizationOf } from '../payments/stored-authorization';
import { COACHING_CLAIM_HEADER, isEnrollmentClaim } from './coaching-claim';
import { hashCoachingSecret, newCoachingSecret } from './coaching-secret';
import { enrollRequestSchema, type EnrollRequest } from './coaching.schema';
import { createEnrollment, replaceSecret, setSecretOnce, takeSecretReissue } from './enrollment-store';
import { SECRET_PENDING_NOTE, SECRET_REISSUED_NOTE, SECRET_SHOWN_NOTE, presentEnrollment } from './present-coaching';

/**
 * A coaching enrollment as every transport sells it (the HTTP route and the MCP `coaching` tool).
 * The drill secret goes, once, to the delivery that made the payment, and a new one (replacing it)
 * to a retry that proves it comes from the payer (X-COACHING-CLAIM on the carrying request); never
 * to a replay rebuilt from the public chain (as bundle tokens). Only its hash is stored.
 * @param deps - app dependencies
 * @returns the paid product
 */
export function coachingProduct(deps: AppDeps): PaidProduct {
  const product = PRODUCTS.coaching;
  const { dataSource } = deps;
  return {
    product,
    requestSchema: enrollRequestSchema,
    quote: ({ wallet_address }) => quoteFor(dataSource, product, undefined, wallet_address),
    async prepare(sent, call) {
      const body = sent as EnrollRequest;
      const pack = findPack(body.pack_id);
      if (!pack) throw new Error(`pack ${body.pack_id} passed validation but is not in the catalog`);
      const charge = await quoteFor(dataSource, product, undefined, body.wallet_address);
      const claim = call.header(COACHING_CLAIM_HEADER);
      const requestHash = canonicalHash({ path: product.path, body });
      if (claim !== '') await admitClaim(deps, call, requestHash, claim);
      const onDelivery: DeliveryExtras = async (authorization, delivery) => {
        const secret = newCoachingSecret();
        if (delivery.first) {
          return (await setSecretOnce(dataSource, authorization.id, hashCoachingSecret(secret))) ? { secret, secret_note: SECRET_SHOWN_NOTE } : {};
        }
        if (!(await isEnrollmentClaim(authorization, claim, deps.config.payments.evmRpcUrl))) return {};
        return (await replaceSecret(dataSource, authorization.id, hashCoachingSecret(secret))) ? { secret, secret_note: SECRET_REISSUED_NOTE } : {};
      };
      return {
        request: {
          charge,
          wallet: body.wallet_address,
          requestHash,
          onDelivery,
          nonFinalNote: { secret_note: SECRET_PENDING_NOTE },
        },
        async work(paid) {
          if (paid.authorizationId === null) throw new Error('coaching is bought per call only');
          const enrollment = await createEnrollment(dataSource, {
            wallet: paid.payer,
            packId: pack.id,
            attempts: PRODUCT_TERMS.coachingAttempts,
            authorizationId: paid.authorizationId,
          });
          return {
            response: presentEnrollment(enrollment, pack, paid.resultId),
            // An enrollment scores nothing itself: the ledger row has no profile or score.
            summary: { profile: null, score: null, passed: null, scorerVersion: 'none' },
            calibrationText: null,
          };
        },
      };
    },
  };
}

// A claim is checked before the payment pipeline runs, so a bad one is refused clearly rather than
// answered with the stored enrollment and no secret: it must come with the very payment and
// request it claims for, be the payer's signature, and be the only claim in its window (of several
// concurrent claims, one gets the new secret; the others are told to wait).
async function admitClaim(deps: AppDeps, call: PaidCall, requestHash: string, claim: string): Promise<void> {
  const authorization = await storedAuthorizationOf(call, deps, requestHash);
  if (!authorization) {
    throw new AppError(422, 'claim_without_enrollment', `${COACHING_CLAIM_HEADER} goes with a retry of a paid enrollment: the same payment and the same body.`);
  }
  if (!(await isEnrollmentClaim(authorization, claim, deps.config.payments.evmRpcUrl))) {
    throw new AppError(401, 'invalid_claim', `${COACHING_CLAIM_HEADER} is not the paying wallet's signature of the claim message for this payment.`);
  }
  const wait = await takeSecretReissue(deps.dataSource, authorization.id);
  if (wait > 0) {
    throw new AppError(409, 'secret_recently_issued', 'A secret was issued for this enrollment moments ago (a concurrent claim); use it, or claim again later.', {
      headers: { 'Retry-After': String(wait) },
      details: { retry_after_seconds: wait },
    });
  }
}
