import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { AppError, ValidationError } from '../../shared/errors';
import { compileBodySchema, toFieldProblems } from '../http/ajv';
import type { AppContext } from '../http/context';
import { conversionRequestSchema } from './catalog-match.schema';
import type { SecretBox } from '../../shared/secrets/secret-box';
import { partnerSigningSecret } from './partner-store';

/** The path of the signed conversion callback (the JSON body parser leaves it alone: the signature covers the raw bytes). */
export const CONVERSIONS_PATH = '/api/catalog/conversions';

/**
 * The clock skew the `standardwebhooks` package allows between `webhook-timestamp` and now, either
 * way (its fixed tolerance); an older or newer message is refused before anything is looked up.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The validated body of a conversion. */
export interface ConversionBody {
  partner_id: string;
  handoff_id: string;
  event_type: string;
}

/** What happened to a verified conversion. */
export interface ConversionOutcome {
  handoff_id: string;
  counted: boolean;
  status: 'counted' | 'already_counted';
  conversion_id?: string;
}

const validateConversion = compileBodySchema<ConversionBody>(conversionRequestSchema);

// Standard Webhooks ids are opaque strings; bounded so a stored id stays small.
const MESSAGE_ID = /^[\x21-\x7e]{1,128}$/;

const invalidSignature = (cause?: unknown) =>
  new AppError(401, 'signature_invalid', "The conversion's Standard Webhooks signature is missing, wrong or outside the allowed clock skew; nothing was recorded.", {
    cause,
    headers: { 'WWW-Authenticate': 'Signature realm="catalog-conversions", scheme="standard-webhooks"' },
  });

/**
 * Parses and validates a conversion's raw body (the signature is checked after, with the secret of
 * the partner the body names; a body naming a partner it was not signed by fails that check).
 * @param raw - the bytes received
 * @returns the body
 * @throws ValidationError (422) naming the failing fields; a body that is no JSON names the whole body
 */
export function parseConversion(raw: Buffer): ConversionBody {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ValidationError([{ path: '', rule: 'json', message: 'must be a JSON object' }], 'The body is not JSON.', 'invalid_json');
  }
  if (!validateConversion(body)) throw new ValidationError(toFieldProblems(validateConversion.errors));
  return body;
}

/**
 * Verifies a conversion's signature with the partner's secret and the `standardwebhooks` package:
 * the signed content is `webhook-id`, `webhook-timestamp` and the raw body, the timestamp must be
 * within {@link SIGNATURE_TOLERANCE_SECONDS} of now, and any `v1` signature in `webhook-signature`
 * may match. An unknown partner is refused exactly like a wrong signature, so a caller without a
 * secret learns nothing about who is listed.
 * @param ctx - Koa context (the headers)
 * @param ds - DataSource
 * @param box - the box partner signing secrets are sealed in
 * @param raw - the bytes received
 * @param partnerId - the partner the body names
 * @returns the message id (`webhook-id`)
 * @throws AppError 401 signature_invalid
 */
export async function verifyConversionSignature(ctx: AppContext, ds: DataSource, box: SecretBox, raw: Buffer, partnerId: string): Promise<string> {
  const headers = { 'webhook-id': ctx.get('webhook-id'), 'webhook-timestamp': ctx.get('webhook-timestamp'), 'webhook-signature': ctx.get('webhook-signature') };
  if (!MESSAGE_ID.test(headers['webhook-id'])) throw invalidSignature();
  const secret = await partnerSigningSecret(ds, box, partnerId);
  if (secret === undefined) throw invalidSignature();
  try {
    new Webhook(secret).verify(raw, headers);
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw invalidSignature(err);
    throw err;
  }
  return headers['webhook-id'];
}

/**
 * Records a verified conversion, in one transaction: the message id first (a replayed id is
 * refused, 409), then the handoff must be the partner's and inside its attribution window, then at
 * most one conversion per handoff counts (a later one is acknowledged, not counted). A refusal rolls
 * everything back: a refused conversion leaves no row and counts nowhere.
 * @param ds - DataSource
 * @param partnerId - the verified partner
 * @param messageId - the verified `webhook-id`
 * @param body - the verified body
 * @returns the outcome
 * @throws AppError 409 conversion_replayed, 404 handoff_not_found, 409 attribution_window_closed
 */
export async function recordConversion(ds: DataSource, partnerId: string, messageId: string, body: ConversionBody): Promise<ConversionOutcome> {
  return ds.transaction(async (m) => {
    const fresh = (await m.query(
      `INSERT INTO catalog_conversion_messages (partner_id, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id`,
      [partnerId, messageId],
    )) as unknown[];
    if (fresh.length === 0) {
      throw new AppError(409, 'conversion_replayed', 'This webhook-id was already received from this partner; it is not counted again.', { details: { webhook_id: messageId } });
    }
    const handoffs = (await m.query(
      `SELECT attribution_expires_at <= now() AS closed FROM catalog_handoffs WHERE id = $1 AND partner_id = $2`,
      [body.handoff_id, partnerId],
    )) as Array<{ closed: boolean }>;
    if (!handoffs[0]) throw new AppError(404, 'handoff_not_found', 'No handoff with this id was attributed to this partner; nothing was recorded.', { details: { handoff_id: body.handoff_id } });
    if (handoffs[0].closed) {
      throw new AppError(409, 'attribution_window_closed', "The handoff's attribution window has closed; nothing was recorded.", { details: { handoff_id: body.handoff_id } });
    }
    const inserted = (await m.query(
      `INSERT INTO catalog_conversions (handoff_id, partner_id, message_id, event_type) VALUES ($1, $2, $3, $4)
       ON CONFLICT (handoff_id) DO NOTHING RETURNING id`,
      [body.handoff_id, partnerId, messageId, body.event_type],
    )) as Array<{ id: string }>;
    return inserted[0]
      ? { handoff_id: body.handoff_id, counted: true, status: 'counted', conversion_id: inserted[0].id }
      : { handoff_id: body.handoff_id, counted: false, status: 'already_counted' };
  });
}
