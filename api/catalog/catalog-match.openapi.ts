import { MAX_RECOMMENDATIONS } from '../../shared/catalog/match-jobs';
import type { OperationSpec } from '../http/openapi/operation';
import { HANDOFFS_PER_HOUR } from './handoff-rate-limit';
import { COMMON_RESPONSES, credentialResponses, errorBodySchema, validationErrorSchema } from '../http/responses.schema';
import {
  ATTRIBUTION_WINDOW_DAYS,
  JOB_SLUG_PATTERN,
  QUERY_MAX_CHARS,
  conversionRequestSchema,
  conversionResultSchema,
  createdPartnerSchema,
  handoffSchema,
  jobListSchema,
  jobMatchSchema,
  matchRequestSchema,
  partnerListSchema,
  partnerRequestSchema,
  recommendQuerySchema,
  recommendationSchema,
  summaryQuerySchema,
  summarySchema,
} from './catalog-match.schema';
import { CATALOG_DOCUMENT_PATHS } from './catalog-document';
import { SIGNATURE_TOLERANCE_SECONDS } from './conversions';

const ABOUT =
  'Catalog matching: ten curated developer jobs, each mapped to the offerings that do it (this service\'s paid products, its MCP ' +
  'endpoint, starter kit and embedded check component, and partners an operator listed).';

const JOB_SLUG_PARAM = { job_slug: { type: 'string', pattern: JOB_SLUG_PATTERN, maxLength: 64 } };

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'Standard Webhooks message id: unique per conversion message (1 to 128 printable ASCII characters). A repeated id is refused (409).', schema: { type: 'string' }, required: true },
  { name: 'webhook-timestamp', description: `Unix seconds when the message was signed; within ${SIGNATURE_TOLERANCE_SECONDS} s of the server clock either way.`, schema: { type: 'string' }, required: true },
  { name: 'webhook-signature', description: 'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{raw body}` under the partner\'s whsec_ secret; one must match.', schema: { type: 'string' }, required: true },
];

/** OpenAPI specs of catalog matching and attribution. */
export const catalogMatchOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/catalog/jobs',
    operationId: 'listCatalogJobs',
    summary: 'The ten curated developer jobs of the deterministic matcher, each with its offerings.',
    description: `${ABOUT} The order is fixed and is the matcher's tie-break. Each job's slug is stable.`,
    tags: ['catalog'],
    responses: { '200': { description: 'The ten jobs.', schema: jobListSchema }, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'get',
    path: '/api/catalog/recommend',
    operationId: 'recommendCatalogJobs',
    summary: 'Ranks the jobs for short keywords: deterministic, read-only, the query never stored or logged.',
    description:
      `${ABOUT} The query is cut into lowercase terms (letters and digits; plural and -ing endings folded) and each job scores the sum ` +
      'of the weights of its keywords found among them (each keyword once). Jobs scoring 0 are left out; the others are ranked by score, ' +
      `and on a tie by their order in GET /api/catalog/jobs; at most ${MAX_RECOMMENDATIONS}. No model and no network: the same query always ` +
      'gets the same answer (until matcher_version changes). Nothing is written; the query is neither echoed nor stored nor logged (the ' +
      'service logs only its length and a keyed hash), but GET URLs can persist in logs elsewhere, so send short non-sensitive keywords only. ' +
      `An empty, missing or longer than ${QUERY_MAX_CHARS}-character query is 422 naming /query.`,
    tags: ['catalog'],
    query: recommendQuerySchema,
    responses: { '200': { description: 'The ranked jobs (possibly none).', schema: recommendationSchema }, ...COMMON_RESPONSES },
  },
  {
    method: 'get',
    path: '/api/catalog/match/{job_slug}',
    operationId: 'getCatalogMatch',
    summary: "One job's stable match: its offerings, best first, and how to record the selection.",
    description: `${ABOUT} The same job gives the same answer until the catalog or the listed partners change. A slug of another shape is 422; an unknown one 404 job_not_found.`,
    tags: ['catalog'],
    pathParams: JOB_SLUG_PARAM,
    responses: {
      '200': { description: 'The match.', schema: jobMatchSchema },
      '404': { description: 'job_not_found.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'post',
    path: '/api/catalog/match',
    operationId: 'recordCatalogMatch',
    summary: 'Records a completed selection (a job and one of its offerings) and returns the match with a handoff id for attribution.',
    description:
      `${ABOUT} Each call records one handoff: its id, the job, the offering and its partner, and an attribution window of ` +
      `${ATTRIBUTION_WINDOW_DAYS} days. Nothing about the caller (no address, no identity, no query) is stored. For a partner's offering, ` +
      'handoff_url is the partner\'s address with ?handoff_id=, which the partner reports back in a signed conversion. An offering_id that is ' +
      'not one of the job\'s is 422 naming /offering_id; nothing is stored.',
    tags: ['catalog'],
    body: matchRequestSchema,
    responses: {
      '201': { description: 'The handoff.', schema: handoffSchema },
      '429': {
        description: `handoff_rate_limited: more than ${HANDOFFS_PER_HOUR} handoffs from this client (its address, or IPv6 /64) within the hour; see Retry-After. Nothing is stored.`,
        schema: errorBodySchema,
        headers: { 'Retry-After': { description: 'Seconds until the window ends.', schema: { type: 'string' } } },
      },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'post',
    path: '/api/catalog/conversions',
    operationId: 'receiveCatalogConversion',
    summary: "A partner's signed conversion callback for a handoff it received (Standard Webhooks).",
    description:
      'Signed by the partner with the Standard Webhooks scheme and the whsec_ secret it was given when listed: the signature covers ' +
      'webhook-id, webhook-timestamp and the exact body bytes. Checks, in order: the body (422 naming the field), the signature with the ' +
      `secret of the partner the body names and the timestamp within ${SIGNATURE_TOLERANCE_SECONDS} s (401 signature_invalid; an unknown ` +
      'partner is refused the same way), the webhook-id not seen before from this partner (409 conversion_replayed), the handoff ' +
      `attributed to this partner (404 handoff_not_found) and inside its ${ATTRIBUTION_WINDOW_DAYS}-day window (409 attribution_window_closed). ` +
      'A refused conversion is recorded nowhere and counted nowhere. The first conversion of a handoff counts (201); a later one, under a ' +
      'new webhook-id, is acknowledged and not counted (200 already_counted).',
    tags: ['catalog'],
    headers: SIGNATURE_HEADERS,
    body: conversionRequestSchema,
    responses: {
      '201': { description: 'Counted.', schema: conversionResultSchema },
      '200': { description: 'already_counted: the handoff already has a counted conversion.', schema: conversionResultSchema },
      '401': { description: 'signature_invalid: missing or wrong signature, a timestamp outside the clock skew, or an unknown partner.', schema: errorBodySchema },
      '404': { description: 'handoff_not_found: no handoff with this id was attributed to this partner.', schema: errorBodySchema },
      '409': { description: 'conversion_replayed (this webhook-id was already received) or attribution_window_closed.', schema: errorBodySchema },
      '413': { description: 'payload_too_large.', schema: errorBodySchema },
      '422': { description: 'The body is no JSON (invalid_json) or a field fails; every failing field is listed.', schema: validationErrorSchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
  {
    method: 'get',
    path: '/api/catalog/attribution/summary',
    operationId: 'getCatalogAttributionSummary',
    summary: 'Public installer and handoff totals; per-vendor conversion totals with include=vendors and an operator credential.',
    description:
      'Public: verified installs and handoffs per job; no identities, no sites, no vendors, no query text. With include=vendors the ' +
      'answer adds each listed partner\'s handoffs and counted conversions, and needs Authorization: Bearer <operator credential> ' +
      '(401 without it, 403 with an admin one).',
    tags: ['catalog'],
    query: summaryQuerySchema,
    responses: { '200': { description: 'The totals.', schema: summarySchema }, ...credentialResponses('operator'), ...COMMON_RESPONSES },
  },
  ...CATALOG_DOCUMENT_PATHS.map(
    (path): OperationSpec => ({
      method: 'get',
      path,
      operationId: path.startsWith('/api') ? 'getCatalogDocumentUnderApi' : 'getCatalogDocument',
      summary: 'The developer handoff document: every offering with its install kind, the ten jobs, the matching and conversion endpoints.',
      description: `${ABOUT} Built from the offerings data and the listed partners; every URL absolute. Cache-Control and a strong ETag (304 on If-None-Match).`,
      tags: ['discovery'],
      responses: { '200': { description: 'The document.', schema: { type: 'object' } }, '500': COMMON_RESPONSES['500'] },
    }),
  ),
  {
    method: 'post',
    path: '/api/operator/catalog/partners',
    operationId: 'createCatalogPartner',
    summary: "Lists a partner's offering for some jobs and returns its conversion signing secret, once.",
    description:
      'The secret (whsec_ and 32 random bytes, base64) is shown only in this answer. Verifying a signature needs the secret itself, so ' +
      'it cannot be kept as a hash: it is stored encrypted (AES-256-GCM under a key derived with HKDF from the server secret ' +
      'CALLER_HASH_KEY, bound to the partner id), and opened only to verify a conversion. A partner_id already listed is 409 ' +
      "partner_exists; one of this service's offering ids is 422.",
    tags: ['operator'],
    security: 'operatorToken',
    body: partnerRequestSchema,
    responses: {
      '201': { description: 'The partner and its signing secret.', schema: createdPartnerSchema },
      '409': { description: 'partner_exists.', schema: errorBodySchema },
      ...credentialResponses('operator'),
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/operator/catalog/partners',
    operationId: 'listCatalogPartners',
    summary: 'The listed partners, without secrets.',
    tags: ['operator'],
    security: 'operatorToken',
    responses: { '200': { description: 'The partners.', schema: partnerListSchema }, ...credentialResponses('operator'), '500': COMMON_RESPONSES['500'] },
  },
];
