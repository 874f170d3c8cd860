import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, credentialResponses, errorBodySchema } from '../http/responses.schema';
import { ATTENTION_CHECKS, EXCLUDING_FAILURES } from './attention-checks';
import { MIN_ALPHA, MIN_RATERS_PER_ITEM } from './calibration-report';
import { WORDING_REVIEW_CONSENT } from './consent-texts';
import { tokenPattern, WORDING_TOKEN } from '../http/program-token';
import { SCALE_MAX, SCALE_MIN } from './rating-scales';
import {
  createdWordingSessionSchema,
  publicAgreementSchema,
  wordingConsentRequestSchema,
  wordingConsentSchema,
  wordingDeletedSchema,
  wordingRatingRequestSchema,
  wordingRatingResultSchema,
  wordingReportSchema,
  wordingSessionSchema,
} from './wording-review.schema';

const WORDING =
  'Wording review: raters judge replies on four scales (how human, how warm, how direct, how hesitant), integers ' +
  `${SCALE_MIN} to ${SCALE_MAX}. Items come only from text whose authors consented to this use (free-tier replies sent with ` +
  'data_consent, paid replies sent with share_for_calibration, pilot replies whose author holds the model consent) and show the text alone, with no author, profile, source or time; ' +
  'an item whose source is deleted disappears with it. ' +
  `One of ${ATTENTION_CHECKS.length} attention checks (items whose text says how to rate them) is mixed into each batch; a rater who ` +
  `answers ${EXCLUDING_FAILURES} otherwise than they ask is left out of calibration and nothing else changes. The session token is shown ` +
  `once and stored only as its SHA-256; a missing, malformed, unknown or deleted token is 401 program_token_required or ` +
  'program_token_invalid, never 404.';

const TOKEN_HEADER = [
  { name: WORDING_TOKEN.header, description: 'The rater token from POST /api/aei/wording-review/sessions.', schema: { type: 'string', pattern: tokenPattern(WORDING_TOKEN) }, required: true },
] as const;

const UNAUTHORIZED = {
  description: 'program_token_required (no header) or program_token_invalid (malformed, unknown or deleted token).',
  schema: errorBodySchema,
};

/** OpenAPI specs of the research programs (wording review and its calibration report). */
export const aeiProgramOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/aei/wording-review/consent',
    operationId: 'getWordingReviewConsent',
    summary: 'The current consent text of the wording review, its version and the rating scales.',
    description: `${WORDING} Accept it by sending its version to POST /api/aei/wording-review/sessions.`,
    tags: ['programs'],
    responses: { '200': { description: 'The consent text.', schema: wordingConsentSchema }, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: '/api/aei/wording-review/sessions',
    operationId: 'createWordingReviewSession',
    summary: 'Consent and open a rater session: the token (shown once) and the first items.',
    description:
      `${WORDING} The body carries "consent": true and the consent_version accepted (now ${WORDING_REVIEW_CONSENT.version}); a missing or ` +
      'false consent is 422 consent_required, another version 422 consent_version_not_current. Nothing is stored without consent.',
    tags: ['programs'],
    body: wordingConsentRequestSchema,
    responses: { '201': { description: 'The session, its token and its first items.', schema: createdWordingSessionSchema }, ...COMMON_RESPONSES },
  },
  {
    method: 'get',
    path: '/api/aei/wording-review/session',
    operationId: 'getWordingReviewSession',
    summary: "The rater's session and the next items to rate.",
    description: `${WORDING} next_items holds up to four consented items this session has not rated (those with fewest raters first) and one unanswered attention check, shuffled; empty when none is left.`,
    tags: ['programs'],
    headers: TOKEN_HEADER,
    responses: { '200': { description: 'The session.', schema: wordingSessionSchema }, '401': UNAUTHORIZED, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'delete',
    path: '/api/aei/wording-review/session',
    operationId: 'deleteWordingReviewSession',
    summary: 'Withdraw: delete the session, every rating in it and its token.',
    description: `${WORDING} The rows are deleted, not marked: the ratings leave the calibration report at once and the token answers 401 from then on.`,
    tags: ['programs'],
    headers: TOKEN_HEADER,
    responses: { '200': { description: 'What was deleted.', schema: wordingDeletedSchema }, '401': UNAUTHORIZED, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: '/api/aei/wording-review/ratings',
    operationId: 'postWordingReviewRating',
    summary: 'Rate one item on all four scales, once.',
    description: `${WORDING} A second rating of the same item by the same session is 409 already_rated (the first stands); an id that is no item is 422 item_unknown.`,
    tags: ['programs'],
    headers: TOKEN_HEADER,
    body: wordingRatingRequestSchema,
    responses: {
      '201': { description: 'Recorded, with the next items.', schema: wordingRatingResultSchema },
      '401': UNAUTHORIZED,
      '409': { description: 'already_rated: this session rated this item before.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/admin/aei/wording-review',
    operationId: 'getWordingReviewReport',
    summary: "Calibration report: raters' agreement and the engine's correlation with them, per scale.",
    description:
      `Per scale: Krippendorff's alpha (ordinal) over items rated twice or more; Spearman's rho of the engine's value against the raters' ` +
      `mean over items with at least ${MIN_RATERS_PER_ITEM} raters, with a 95% interval and counts; counts is true only where alpha is at ` +
      `least ${MIN_ALPHA}. Only consented items and raters who passed the attention checks enter; no text and no session id is shown.`,
    tags: ['operators'],
    security: 'adminToken',
    responses: { '200': { description: 'The report.', schema: wordingReportSchema }, ...credentialResponses('admin'), '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'get',
    path: '/api/validation/human-agreement',
    operationId: 'getHumanAgreement',
    summary: "Public agreement table: how far people agree with each other and with the engine, per scale.",
    description:
      'The calibration report without session counts and with every figure withheld (null, suppressed: true) while fewer than five raters ' +
      'are behind it. Read live. The held-out research figures are printed by npm run eval.',
    tags: ['public'],
    responses: { '200': { description: 'The table.', schema: publicAgreementSchema }, '500': COMMON_RESPONSES['500'] },
  },
];
