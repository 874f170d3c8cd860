import type { AuthorizationRow } from '../../../shared/payments/authorization-store';
import type { Logger } from '../../../shared/logger';
import type { AppDeps } from '../../http/deps';
import { activateQuote, mintPlanToken } from './plan-activation';
import { presentActivationState, paymentPath } from './present-plans';
import { markActivationFailed } from './quote-store';
import { PLAN_CLAIM_HEADER, PLAN_CLAIM_SUBJECT } from './plans.schema';

/** The note of an answer that carries the plan bundle's token. */
export const TOKEN_SHOWN_NOTE =
  'bundle_token is shown this once and stored only as a hash: keep it on your host server and send it as X-BUNDLE-TOKEN to POST /api/embed/check. Renewals and upgrades add credits to this same token.';

/** How the payer gets a token that was not shown (an activation finished by a retry, or a replay). */
export const TOKEN_CLAIM_NOTE =
  `The plan bundle's token is shown once: to the request that paid, or to a request carrying ${PLAN_CLAIM_HEADER}, the paying wallet's signature (EIP-191 personal_sign) of ` +
  `"humanlike: claim ${PLAN_CLAIM_SUBJECT}\\nnonce: <the payment's nonce>". A replay rebuilt from the public chain never gets it.`;

/**
 * Activates a settled quote and presents the outcome; a failure is recorded on the quote and
 * answered as `failed` with the retry path (the payment stands, nothing is charged again), never thrown.
 * @param deps - app dependencies
 * @param quoteId - the quote
 * @param authorization - its settled authorization
 * @param mayShowToken - the request paid, or proved it comes from the payer
 * @param log - request logger
 * @returns the activation block
 */
export async function activateAndPresent(deps: AppDeps, quoteId: string, authorization: Pick<AuthorizationRow, 'payer'>, mayShowToken: boolean, log: Logger): Promise<Record<string, unknown>> {
  try {
    const activation = await activateQuote(deps.dataSource, quoteId, authorization.payer);
    const token = mayShowToken ? await mintPlanToken(deps.dataSource, activation.plan.bundleId) : undefined;
    return {
      ...presentActivationState(activation.quote, activation.plan),
      credits_granted: activation.creditsGranted,
      ...(token ? { bundle_token: token, token_note: TOKEN_SHOWN_NOTE } : { bundle_token: null, token_note: TOKEN_CLAIM_NOTE }),
    };
  } catch (err) {
    log.error({ err, quoteId }, 'catalog plan activation failed');
    await markActivationFailed(deps.dataSource, quoteId, 'activation_failed').catch((markErr: unknown) => log.error({ err: markErr, quoteId }, 'activation failure not recorded'));
    return {
      status: 'failed',
      error: 'activation_failed',
      message: 'The payment settled but the plan could not be activated yet. Nothing more will be charged: POST retry to finish it.',
      retry: { method: 'POST', path: `${paymentPath(quoteId)}/retry-activation` },
    };
  }
}
