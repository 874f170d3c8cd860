import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';
import { CLAIM_KINDS } from '../../shared/script-check/extract-claims';
import { SCRIPT_CHECK_METHOD } from '../../shared/script-check/check-script';
import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders, pricePhrase } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { scriptCheckRequestSchema } from './script-check.schema';

const product = PRODUCTS.scriptCheck;

const offsetsSchema = {
  start: { type: 'integer', minimum: 0, description: 'UTF-16 offset of the first character (as JavaScript strings index).' },
  end: { type: 'integer', minimum: 0, description: 'UTF-16 offset just past the last character.' },
  text: { type: 'string' },
};

const claimSchema = {
  type: 'object',
  required: ['kind', 'text', 'start', 'end', 'value', 'on_script', 'matched', 'approved_alternatives'],
  properties: {
    kind: { enum: [...CLAIM_KINDS] },
    ...offsetsSchema,
    value: {
      type: 'string',
      description:
        'Canonical value compared: "USD 5.00" (price), "50%" (percentage), "1500" (number), "+14155552671" (phone, E.164), ' +
        '"acme.io/pricing" (URL without http(s)://, www. and trailing slash), "sales@acme.io" (email), "acme pro plan" (product name).',
    },
    on_script: { type: 'boolean' },
    matched: {
      type: ['object', 'null'],
      description: 'On script: where the approved material states the same value (index of the fact, offsets in that fact or in source_text).',
      properties: { from: { enum: ['approved_facts', 'source_text'] }, index: { type: 'integer', minimum: 0 }, ...offsetsSchema },
    },
    approved_alternatives: { type: 'array', items: { type: 'string' }, description: 'Off script: approved values of the same kind, as written there (at most 3).' },
  },
};

const countsSchema = { type: 'object', properties: { on_script: { type: 'integer' }, off_script: { type: 'integer' } } };

const scriptCheckResponseSchema = {
  type: 'object',
  required: ['result_id', 'method', 'method_note', 'adherence_score', 'claims_checked', 'on_script', 'off_script', 'claims', 'improvement', 'referral_code'],
  properties: {
    result_id: { type: 'string', format: 'uuid' },
    method: { const: 'string_and_number_matching' },
    method_note: { type: 'string', description: SCRIPT_CHECK_METHOD },
    offsets: { type: 'string' },
    adherence_score: { type: 'number', minimum: 0, maximum: 100, description: 'Share of the claims that are on script (100 when the reply has none).' },
    claims_checked: { type: 'integer', minimum: 0 },
    on_script: { type: 'integer', minimum: 0 },
    off_script: { type: 'integer', minimum: 0 },
    by_kind: { type: 'object', properties: Object.fromEntries(CLAIM_KINDS.map((k) => [k, countsSchema])) },
    claims: { type: 'array', items: claimSchema },
    improvement: { type: 'string', description: 'One next step, e.g. which off-script claim to rephrase from the approved facts.' },
    referral_code: { type: 'string', description: "This wallet's own referral code (section 8)." },
    reward_bundle_tokens: { type: 'array', items: { type: 'string' }, description: 'Referral rewards due to this wallet, in the first delivery only.' },
    payment: {
      type: 'object',
      properties: { network: { type: 'string' }, asset: { type: 'string' }, amount: { type: 'string' }, transaction: { type: 'string' } },
    },
  },
};

/** OpenAPI specs of the script-check routes. */
export const scriptCheckOperations: OperationSpec[] = [
  {
    method: 'post',
    path: product.path,
    operationId: 'postScriptCheck',
    summary: `Paid script check (${pricePhrase(product)}) over x402: every checkable claim of a reply flagged on-script or off-script.`,
    description:
      'Finds the checkable claims of reply_text (prices, numbers, percentages, URLs, emails, phone numbers, product names) and ' +
      'flags each on script when approved_facts or source_text state the same value, with exact UTF-16 offsets, plus an ' +
      `adherence score and one improvement step. ${SCRIPT_CHECK_METHOD} A product name is a name found in the approved ` +
      'material (matched in any letter case) or a run of two or more capitalized words. Phone numbers without a country code ' +
      'are read as US numbers. At least one of approved_facts and source_text is required (422 otherwise). ' +
      `Paid like POST /api/simulate: 402 quote without payment, PAYMENT-SIGNATURE (or the legacy X-PAYMENT / tx_hash), ` +
      `replay of the same request with the same authorization (${REPLAY_HEADER}: true), 409 for another request. A wallet with ` +
      `${PRODUCT_TERMS.loyaltyThresholdSessions} settled paid sessions is quoted ${PRODUCT_TERMS.loyaltyDiscountPct} percent off ` +
      '(the 402 body names the discount); the payment must match the quote for the request\'s wallet_address.',
    tags: ['paid'],
    body: scriptCheckRequestSchema,
    headers: paidCallHeaders(product),
    responses: {
      '200': { description: 'The check, with the receipt headers.', schema: scriptCheckResponseSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
      '422': {
        description: 'validation_failed: every failing field with its JSON path, including neither approved_facts nor source_text. Checked before any payment.',
        schema: errorBodySchema,
      },
    },
  },
  {
    method: 'get',
    path: product.path,
    operationId: 'getScriptCheckQuote',
    summary: 'The payment challenge of a script check (quote only; never settles).',
    tags: ['paid'],
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
];
