import type Stripe from 'stripe';
import { AppError } from '../../shared/errors';
import type { AppContext } from '../http/context';

/** Path of the webhook endpoint (the app's JSON body parser leaves it alone: the signature is over the raw bytes). */
export const CARD_WEBHOOK_PATH = '/api/card/webhook';

/**
 * Reads a request's body as raw bytes, up to a limit.
 * @param ctx - Koa context
 * @param limitBytes - largest accepted body
 * @returns the bytes
 * @throws AppError 413 payload_too_large
 */
export async function readRawBody(ctx: AppContext, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) throw new AppError(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new AppError(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Verifies a webhook with the SDK (`constructEvent` over the exact bytes received, never a
 * re-serialised body) and returns its event.
 * @param stripe - the processor client
 * @param raw - the body bytes
 * @param signature - the `Stripe-Signature` header
 * @param secret - the endpoint's signing secret
 * @param toleranceSeconds - oldest signature timestamp accepted
 * @returns the event
 * @throws AppError 400 invalid_signature (missing, wrong or stale signature, or not an event)
 */
export function verifyWebhook(stripe: Stripe, raw: Buffer, signature: string, secret: string, toleranceSeconds: number): Stripe.Event {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(raw, signature, secret, toleranceSeconds);
  } catch (err) {
    throw new AppError(400, 'invalid_signature', 'The webhook signature is missing, wrong or too old; nothing was recorded.', { cause: err });
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string' || event.object !== 'event') {
    throw new AppError(400, 'invalid_signature', 'The signed body is not an event; nothing was recorded.');
  }
  return event;
}
