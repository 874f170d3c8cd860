import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import {
  consentRequestSchema,
  createdSessionSchema,
  responsesRequestSchema,
  responsesResultSchema,
  reviewSessionSchema,
  sessionListQuerySchema,
  sessionListSchema,
  summarySchema,
} from './community-review.schema';
import { RATING_MAX, RATING_MIN, SAMPLE_IDS } from './review-samples';
import { MIN_RATINGS_FOR_AGREEMENT } from './review-summary';

const ABOUT =
  `Community review: people rate sample replies written by the service itself (${SAMPLE_IDS.length} fixed samples; never a caller's text) ` +
  `on five dimensions, ${RATING_MIN} to ${RATING_MAX}, and the summary measures how far the engine agrees with them. Free; no account, ` +
  'no identity is stored (not even a hash of the client address: the per-client write limits live in Redis and expire hourly). ' +
  'A reviewer may add a comment per sample; comments are kept for the operators and never returned by any public endpoint.';

const RATE_LIMITED = (what: string, knob: string, fallback: number) => ({
  description:
    `review_rate_limited: more than ${knob} (default ${fallback}) ${what} from this client (its address, or IPv6 /64) within the hour; ` +
    'see Retry-After and details.retry_after_seconds.',
  schema: errorBodySchema,
  headers: { 'Retry-After': { description: 'Seconds until the window ends.', schema: { type: 'string' } } },
});

const NOT_FOUND = { description: 'review_session_not_found: no session has this id (or it is no UUID).', schema: errorBodySchema };

/** OpenAPI specs of community review. */
export const communityReviewOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/community-review/sessions',
    operationId: 'listCommunityReviewSessions',
    summary: 'Recent community-review sessions: ids, times and progress only.',
    description: `${ABOUT} Lists the newest sessions first with how many samples each holds and has rated; no ratings, secrets or comments.`,
    tags: ['public'],
    query: sessionListQuerySchema,
    responses: { '200': { description: 'The sessions.', schema: sessionListSchema }, ...COMMON_RESPONSES },
  },
  {
    method: 'post',
    path: '/api/community-review/sessions',
    operationId: 'createCommunityReviewSession',
    summary: 'Consent and open a review session: the samples to rate and a secret, shown once.',
    description:
      `${ABOUT} The body must carry "consent": true (a missing or other value is 422 consent_required). The session draws ` +
      'sample_count samples at random. Each sample shows the message it answers, the reply, its delay and profile; the engine\'s ' +
      'scores of a sample stay hidden (engine: null) until it is rated in the session, so ratings are blind. The answer carries ' +
      'session_secret, needed to post ratings and shown only here (the service keeps its SHA-256); anyone with the session id may ' +
      'view the session (GET), only the secret\'s holder may rate in it.',
    tags: ['public'],
    body: consentRequestSchema,
    responses: {
      '201': {
        description: 'The session, with its secret. Location names the session.',
        schema: createdSessionSchema,
        headers: { Location: { description: 'GET address of the session.', schema: { type: 'string' } } },
      },
      '429': RATE_LIMITED('sessions', 'COMMUNITY_REVIEW_SESSIONS_PER_HOUR', 10),
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/community-review/sessions/{session_id}',
    operationId: 'getCommunityReviewSession',
    summary: 'A review session: its samples, its ratings so far, and the engine scores of the rated samples.',
    description: `${ABOUT} The id is enough to view; the secret is never shown again.`,
    tags: ['public'],
    pathParams: { session_id: { type: 'string', format: 'uuid' } },
    responses: { '200': { description: 'The session.', schema: reviewSessionSchema }, '404': NOT_FOUND, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: '/api/community-review/sessions/{session_id}/responses',
    operationId: 'postCommunityReviewResponses',
    summary: "Rate samples of a session (with the session's secret).",
    description:
      `${ABOUT} One entry per sample with at least one dimension rated, each an integer ${RATING_MIN} to ${RATING_MAX}. ` +
      'Rating a sample that this session already rated replaces the earlier rating as a whole (every dimension and the comment) ' +
      'and answers replaced: true; the summary counts it once. A sample twice in one request, or one the session did not draw, is ' +
      '422 invalid_sample; a wrong secret is 403 review_secret_invalid. The answer reveals the engine\'s scores of the rated samples.',
    tags: ['public'],
    pathParams: { session_id: { type: 'string', format: 'uuid' } },
    body: responsesRequestSchema,
    responses: {
      '200': { description: 'What was stored, and the updated session.', schema: responsesResultSchema },
      '403': { description: 'review_secret_invalid: the secret is not this session\'s.', schema: errorBodySchema },
      '404': NOT_FOUND,
      '429': RATE_LIMITED('rating submissions', 'COMMUNITY_REVIEW_RESPONSES_PER_HOUR', 120),
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/community-review/summary',
    operationId: 'getCommunityReviewSummary',
    summary: "How far people's ratings agree with the engine, per dimension.",
    description:
      `${ABOUT} Per dimension: the number of ratings and samples, Spearman's rank correlation and the mean absolute difference ` +
      `between ratings (mapped to 0..1) and the engine's values (0..1), both null below ${MIN_RATINGS_FOR_AGREEMENT} ratings; ` +
      'and both means. Read live.',
    tags: ['public'],
    responses: { '200': { description: 'The summary.', schema: summarySchema }, '500': COMMON_RESPONSES['500'] },
  },
];
