import Router from '@koa/router';
import type { Network } from '@x402/core/types';
import { AppError } from '../../shared/errors';
import type { FacilitatorContext, FacilitatorState } from '../context';
import { jsonBody } from '../middleware/json-body';
import { parseFacilitatorRequest, type FacilitatorRequest } from '../request-schema';
import type { FacilitatorService } from '../x402-service';

// A refused /verify or /settle body still carries the x402 result fields, so x402's HTTP
// facilitator client raises a VerifyError / SettleError with the reason instead of a bare Error.
type Refusal = (status: number, code: string, message: string, details?: unknown) => AppError;

const verifyRefusal: Refusal = (status, code, message, details) =>
  new AppError(status, code, message, { details, extra: { isValid: false, invalidReason: code, invalidMessage: message } });

const settleRefusal =
  (network: Network): Refusal =>
  (status, code, message, details) =>
    new AppError(status, code, message, {
      details,
      extra: { success: false, errorReason: code, errorMessage: message, transaction: '', network },
    });

function readRequest(body: unknown, service: FacilitatorService, refuse: Refusal): FacilitatorRequest {
  const parsed = parseFacilitatorRequest(body);
  if (!parsed.ok) {
    throw refuse(400, 'invalid_request', 'The body is not an x402 v2 exact EIP-3009 request; see details.fields.', { fields: parsed.fields });
  }
  if (!service.serves(parsed.request)) {
    const { scheme, network } = parsed.request.paymentRequirements;
    throw refuse(400, 'unsupported_kind', `This facilitator serves x402 v2 "exact" payments on ${service.network} only.`, {
      scheme,
      network,
      supported: service.supported().kinds,
    });
  }
  return parsed.request;
}

/**
 * The x402 facilitator protocol: `POST /verify`, `POST /settle`, `GET /supported`, plus
 * `GET /healthz`. Expected outcomes (an invalid payment, a failed settlement) are 200 answers
 * with `isValid: false` / `success: false`; only a malformed or unsupported request is a 4xx.
 * @param service - the x402 operations
 * @param bodyLimitBytes - largest accepted body
 * @returns the router
 */
export function x402Routes(service: FacilitatorService, bodyLimitBytes: number): Router<FacilitatorState> {
  const router = new Router<FacilitatorState>();
  const settleRefuse = settleRefusal(service.network);

  router.get('/healthz', async (ctx: FacilitatorContext) => {
    ctx.body = { status: 'ok', network: service.network, signer: service.signerAddress };
  });

  router.get('/supported', async (ctx: FacilitatorContext) => {
    ctx.body = service.supported();
  });

  router.post('/verify', jsonBody(bodyLimitBytes, verifyRefusal), async (ctx: FacilitatorContext) => {
    const request = readRequest(ctx.request.body, service, verifyRefusal);
    const result = await service.verify(request);
    ctx.state.log.info({ payer: result.payer, isValid: result.isValid, invalidReason: result.invalidReason }, 'payment verified');
    ctx.body = result;
  });

  router.post('/settle', jsonBody(bodyLimitBytes, settleRefuse), async (ctx: FacilitatorContext) => {
    const request = readRequest(ctx.request.body, service, settleRefuse);
    const result = await service.settle(request);
    ctx.state.log.info(
      { payer: result.payer, success: result.success, transaction: result.transaction || undefined, errorReason: result.errorReason },
      'payment settled',
    );
    ctx.body = result;
  });

  return router;
}
