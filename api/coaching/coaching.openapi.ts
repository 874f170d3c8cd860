import { PRODUCTS, PRODUCT_TERMS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders, pricePhrase } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { COACHING_CLAIM_HEADER } from './coaching-claim';
import { COACHING_SECRET_HEADER } from './coaching-secret';
import { ENROLLMENT_ID_SCHEMA, drillRequestSchema, enrollRequestSchema } from './coaching.schema';
import { CERTIFICATE_RULE } from './present-coaching';

const product = PRODUCTS.coaching;
const ATTEMPTS = PRODUCT_TERMS.coachingAttempts;

const drillFacts = {
  type: 'object',
  required: ['drill_id', 'title', 'target_profile', 'profile_name', 'bar'],
  properties: {
    drill_id: { type: 'string', description: '`<pack_id>/<n>`.' },
    title: { type: 'string' },
    situation: { type: 'string', description: "The message the agent answers; it is scored as the reply's incoming message." },
    target_profile: { type: 'string', description: 'One of the 28 profile ids.' },
    profile_name: { type: 'string' },
    bar: { type: 'number', minimum: 0, maximum: 100, description: 'Minimum EQ score that clears the drill.' },
  },
};

const packSchema = {
  type: 'object',
  required: ['pack_id', 'name', 'description', 'drills', 'average_bar', 'mean_drill_bar'],
  properties: {
    pack_id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    drills: { type: 'array', items: drillFacts },
    average_bar: { type: 'number', description: "Minimum mean of the drills' best scores; above mean_drill_bar." },
    mean_drill_bar: { type: 'number', description: 'The mean of the drill bars, for comparison.' },
  },
};

const standingProps = {
  drills_cleared: { type: 'integer', minimum: 0 },
  drills_total: { type: 'integer', minimum: 1 },
  average_score: { type: 'number', description: "Mean of the drills' best scores (an unattempted drill counts 0)." },
  average_bar: { type: 'number' },
  average_cleared: { type: 'boolean' },
  complete: { type: 'boolean', description: 'Every drill bar and the average bar cleared: the certificate is issued.' },
};

const certificateLink = {
  type: ['object', 'null'],
  description: 'Null until earned; then the public, shareable certificate (JSON, or HTML with share meta tags for Accept: text/html).',
  properties: { certificate_id: { type: 'string', pattern: '^coaching-' }, url: { type: 'string', format: 'uri' } },
};

const enrollmentSchema = {
  type: 'object',
  required: ['enrollment_id', 'pack_id', 'attempts', 'attempts_left', 'secret', 'secret_note', 'drills', 'average_bar', 'result_id'],
  properties: {
    enrollment_id: { type: 'string', format: 'uuid' },
    pack_id: { type: 'string' },
    pack_name: { type: 'string' },
    attempts: { type: 'integer', const: ATTEMPTS },
    attempts_left: { type: 'integer', minimum: 0, maximum: ATTEMPTS },
    secret: {
      type: ['string', 'null'],
      description: `The drill secret (\`hlc_\` + 43 base64url characters), shown once in the first delivery after settlement and stored only as a SHA-256 hash; null in a replay. Send it in ${COACHING_SECRET_HEADER}.`,
    },
    secret_note: { type: 'string' },
    drills: { type: 'array', items: drillFacts },
    average_bar: { type: 'number' },
    certificate_rule: { type: 'string' },
    progress_path: { type: 'string' },
    wallet: { type: 'string', description: 'The enrolled wallet, masked (first 6 and last 4 characters).' },
    result_id: { type: 'string', format: 'uuid' },
  },
};

const drillResponseSchema = {
  type: 'object',
  required: ['attempt_id', 'enrollment_id', 'drill', 'score', 'cleared_bar', 'points_to_bar', 'fixes', 'attempts_left', 'attempts', 'progress', 'certificate'],
  properties: {
    attempt_id: { type: 'string', format: 'uuid' },
    enrollment_id: { type: 'string', format: 'uuid' },
    drill: drillFacts,
    score: {
      type: 'object',
      required: ['eq_score', 'passed', 'human_likeness', 'scorer_version', 'dimensions', 'signals'],
      properties: {
        eq_score: { type: 'number', minimum: 0, maximum: 100 },
        passed: { type: 'boolean', description: "The profile's own pass verdict (the drill's bar may be higher or lower)." },
        human_likeness: { type: 'number' },
        scorer_version: { type: 'string' },
        dimensions: { type: 'object', description: 'Per text dimension: measured, target, delta.' },
        timing: { type: 'object', description: 'Measured delay against the profile tempo (expected, window).' },
        signals: { type: 'array', items: { type: 'string' }, description: 'Machine-like signals present.' },
      },
    },
    cleared_bar: { type: 'boolean' },
    points_to_bar: { type: 'number', minimum: 0 },
    fixes: {
      type: 'object',
      description: "Prompt-level fixes from the scoring engine's advice for this drill's profile.",
      required: ['note', 'suggested_prompt_addition', 'improvement', 'dimension_gaps'],
      properties: {
        note: { type: 'string' },
        suggested_prompt_addition: { type: 'string', description: "Text to add to the agent's system prompt to move toward this drill's profile and clear its bar." },
        improvement: { type: 'string', description: 'One next step.' },
        suggested_delay_seconds: { type: 'object', description: 'The delay the orchestrator should aim for (timing is not a prompt matter).' },
        dimension_gaps: {
          type: 'array',
          description: 'Dimensions outside their tolerance, largest gap first.',
          items: {
            type: 'object',
            properties: { dimension: { type: 'string' }, measured: { type: 'number' }, target: { type: 'number' }, delta: { type: 'number' }, direction: { enum: ['raise', 'lower'] } },
          },
        },
      },
    },
    attempts_left: { type: 'integer', minimum: 0 },
    attempts: { type: 'integer' },
    progress: { type: 'object', properties: standingProps },
    certificate: certificateLink,
  },
};

const progressSchema = {
  type: 'object',
  required: ['enrollment_id', 'pack_id', 'attempts', 'attempts_left', 'drills', 'average_score', 'average_bar', 'complete', 'certificate'],
  properties: {
    enrollment_id: { type: 'string', format: 'uuid' },
    pack_id: { type: 'string' },
    pack_name: { type: 'string' },
    attempts: { type: 'integer' },
    attempts_left: { type: 'integer', minimum: 0 },
    drills: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          drill_id: { type: 'string' },
          title: { type: 'string' },
          target_profile: { type: 'string' },
          bar: { type: 'number' },
          best_score: { type: ['number', 'null'] },
          cleared: { type: 'boolean' },
          attempts_scored: { type: 'integer', minimum: 0 },
        },
      },
    },
    ...standingProps,
    certificate_rule: { type: 'string' },
    certificate: certificateLink,
    created_at: { type: 'string', format: 'date-time' },
  },
};

const secretHeader = {
  name: COACHING_SECRET_HEADER,
  description: 'The enrollment secret of POST /api/coaching (shown once there).',
  schema: { type: 'string', pattern: '^hlc_' },
  required: true,
};

const SECRET_ERRORS = {
  '401': { description: `coaching_secret_required (no ${COACHING_SECRET_HEADER}) or invalid_coaching_secret (matches no enrollment).`, schema: errorBodySchema },
};

/** OpenAPI specs of the coaching routes. */
export const coachingOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/coaching/packs',
    operationId: 'getCoachingPacks',
    summary: 'The catalog of coaching packs: drills (situation, target profile, bar) and each pack’s average bar.',
    description: `Free. ${CERTIFICATE_RULE} An enrollment includes ${ATTEMPTS} attempts, shared by the pack's drills.`,
    tags: ['paid'],
    responses: { '200': { description: 'The catalog.', schema: { type: 'object', properties: { attempts_included: { type: 'integer' }, certificate_rule: { type: 'string' }, packs: { type: 'array', items: packSchema } } } } },
  },
  {
    method: 'post',
    path: product.path,
    operationId: 'postCoaching',
    summary: `Enroll in a coaching pack (${pricePhrase(product)}) over x402: ${ATTEMPTS} drill attempts toward a certificate.`,
    description:
      'Without payment: 402 with the x402 requirements, quoted for wallet_address (the loyalty discount applies). An unknown pack_id ' +
      'is a 422 before any payment. After settlement the response carries the enrollment and its drill secret, shown this once ' +
      `and stored only as a hash. A lost response is replayed with the same authorization (header ${REPLAY_HEADER}: true), never ` +
      'charged twice, but without the secret, unless it carries X-COACHING-CLAIM: the paying wallet\'s signature (EIP-191 ' +
      'personal_sign, or ed25519 for a Solana payer) of "humanlike: claim coaching secret\\nnonce: <the payment\'s nonce, lowercase>"; ' +
      'then a new secret is shown once and the previous one stops working. The ledger row of an enrollment has no profile or score.',
    tags: ['paid'],
    body: enrollRequestSchema,
    headers: [
      ...paidCallHeaders(product),
      { name: COACHING_CLAIM_HEADER, description: "On a replay: the payer's signature of the claim message; a new drill secret is issued.", schema: { type: 'string' } },
    ],
    responses: {
      '200': { description: 'The enrollment, with the receipt headers.', schema: enrollmentSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
      '422': { description: 'validation_failed (an unknown pack_id among them), checked before any payment.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: product.path,
    operationId: 'getCoachingQuote',
    summary: 'The payment challenge of a coaching enrollment (quote only; never settles).',
    tags: ['paid'],
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
  {
    method: 'post',
    path: '/api/coaching/drill',
    operationId: 'postCoachingDrill',
    summary: 'A scored drill attempt with prompt-level fixes; counts one of the enrollment’s attempts.',
    description:
      "The reply is scored by the engine against the drill's target profile, with the drill's situation as the incoming message " +
      'and the given delay. One attempt is taken atomically before scoring: attempts never go below zero, whatever the ' +
      'concurrency; with none left the answer is 409 no_attempts_left. A request refused before scoring (422, 401) uses no ' +
      'attempt, and an attempt whose scoring fails (503, 504) is given back. The attempt that completes the pack issues the ' +
      'certificate (certificate in the response). The text is never stored or echoed.',
    tags: ['paid'],
    body: drillRequestSchema,
    headers: [secretHeader],
    responses: {
      '200': { description: 'The scored attempt.', schema: drillResponseSchema },
      ...SECRET_ERRORS,
      '409': { description: 'no_attempts_left: every included attempt is used.', schema: errorBodySchema },
      '422': { description: "validation_failed, or drill_not_in_pack (a drill of another pack); no attempt used.", schema: errorBodySchema },
      '503': { description: 'queue_unavailable; the attempt was given back.', schema: errorBodySchema },
      '504': { description: 'job_timeout; the attempt was given back.', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: '/api/coaching/{enrollment_id}',
    operationId: 'getCoachingProgress',
    summary: 'An enrollment’s progress: per drill, its best score against its bar; attempts left; the certificate once earned.',
    tags: ['paid'],
    pathParams: { enrollment_id: ENROLLMENT_ID_SCHEMA },
    headers: [secretHeader],
    responses: {
      '200': { description: 'The progress (Cache-Control: no-store).', schema: progressSchema },
      ...SECRET_ERRORS,
      '403': { description: 'secret_not_for_enrollment: the secret opens another enrollment.', schema: errorBodySchema },
    },
  },
];
