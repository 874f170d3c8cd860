import { CHALLENGE_DIR } from '../../../shared/catalog/install-site';
import { COMPONENT_PATH } from '../../../shared/embed/component-path';
import type { OperationSpec } from '../../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../../http/responses.schema';
import { SITE_FETCH_LIMITS } from './site-fetch-limit';
import { CHALLENGE_TTL_SECONDS, WORKFLOW_ID_SCHEMA, emptyBodySchema, installationSchema, proofQuerySchema, startInstallSchema } from './install.schema';

const BASE = '/api/catalog/free-installs/{workflow_id}';
const PATH_PARAMS = { workflow_id: WORKFLOW_ID_SCHEMA };
const TAGS = ['catalog'];

const WORKFLOW_SCHEMA = {
  type: 'object',
  properties: {
    workflow_id: { type: 'string', format: 'uuid' },
    offering_id: { type: 'string' },
    site_origin: { type: 'string' },
    state: { type: 'string', enum: ['awaiting_challenge', 'challenge_verified', 'install_recorded', 'verified', 'revoked'] },
    challenge: {
      type: 'object',
      properties: { path: { type: 'string' }, url: { type: 'string' }, content: { type: 'string' }, content_type: { type: 'string' }, expires_at: { type: 'string', format: 'date-time' } },
    },
    page_url: { type: ['string', 'null'] },
    next_action: { type: 'object' },
    links: { type: 'object' },
  },
} as const;

const NEXT_ACTION_SCHEMA = {
  type: 'object',
  required: ['workflow_id', 'state', 'action', 'instructions'],
  properties: {
    workflow_id: { type: 'string', format: 'uuid' },
    state: { type: 'string', enum: ['awaiting_challenge', 'challenge_expired', 'challenge_verified', 'install_recorded', 'verified', 'revoked'] },
    action: { type: 'string', enum: ['publish_challenge', 'record_installation', 'paste_snippet_and_verify', 'none', 'start_again'] },
    request: { type: 'object', description: 'The call that completes the action: method, path (and a body sketch).' },
    instructions: { type: 'string' },
  },
} as const;

const SITE_REFUSALS =
  '422 site_address_refused (details.reason: address, port, scheme, credentials: the outbound guard refused the site before connecting, e.g. a name resolving to a loopback, private, link-local such as 169.254.169.254, unique-local, multicast or unspecified address) ' +
  'or site_fetch_failed (details.reason: timeout, unreachable, too_large, redirects, content_type).';

// Each step that reads the site counts against two budgets before fetching (site-fetch-limit.ts).
const { workflow, site } = SITE_FETCH_LIMITS;
const SITE_FETCH_LIMIT_RESPONSES = {
  '429': {
    description: `site_fetch_rate_limited: the site was not fetched; at most ${workflow.limit} fetches per workflow in ${workflow.windowSeconds / 60} minutes and ${site.limit} per site origin in ${site.windowSeconds / 60} minutes (details.scope says which; Retry-After says when).`,
    schema: errorBodySchema,
  },
  '503': { description: 'site_fetch_limit_unavailable: the fetch could not be counted, so the site was not fetched; retry after Retry-After.', schema: errorBodySchema },
};

const WORKFLOW_DESCRIPTION = [
  'The free install workflow: the caller installs the offering on its own site; the service only reads it and never hosts or edits it.',
  `1. POST start (201) binds a site origin and an offering to a challenge that expires after ${CHALLENGE_TTL_SECONDS} s. 2. Serve the challenge's content, exactly, as text/plain at ${CHALLENGE_DIR}/{workflow_id}.txt on the origin, then POST challenge-published: the service fetches it and compares it exactly (trailing whitespace aside). ` +
    '3. POST installation (201) with the page the snippet goes on (same origin). 4. GET code: the snippet (no secret in it; it loads the embedded check component from ' +
    COMPONENT_PATH +
    '). 5. Paste it and POST live-verification: the service fetches the live page and looks for the snippet\'s script tag. 6. GET /api/catalog/verified-installs/{workflow_id} is the public proof.',
  'GET next-action says at every step what to do now (machine-readable `action` and the `request` that completes it). A verified install is checked again regularly; when the challenge or the snippet is gone, its badge is revoked.',
  'Every fetch goes through the outbound guard: http and https on ports 80 and 443 only, the name resolved once and the connection pinned to the checked address, at most 3 redirects each re-checked, 5 s and 512 KiB.',
].join('\n\n');

/** OpenAPI specs of the free install workflow and its public proof. */
export const installOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/catalog/free-installs/start',
    operationId: 'startFreeInstall',
    summary: 'Start a free install workflow for a site origin and an offering (201, with the challenge to publish).',
    description: WORKFLOW_DESCRIPTION,
    tags: TAGS,
    body: startInstallSchema,
    responses: {
      '201': { description: 'The workflow, its challenge (with expires_at) and the next action. Location: its next-action path.', schema: WORKFLOW_SCHEMA },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: `${BASE}/next-action`,
    operationId: 'getFreeInstallNextAction',
    summary: 'What the caller must do now, machine-readable.',
    tags: TAGS,
    pathParams: PATH_PARAMS,
    responses: { '200': { description: 'The next action.', schema: NEXT_ACTION_SCHEMA }, '404': { description: 'not_found', schema: errorBodySchema }, ...COMMON_RESPONSES },
  },
  {
    method: 'post',
    path: `${BASE}/challenge-published`,
    operationId: 'confirmFreeInstallChallenge',
    summary: `The challenge is published at ${CHALLENGE_DIR}/{workflow_id}.txt: the service fetches it from the site and checks it exactly.`,
    tags: TAGS,
    pathParams: PATH_PARAMS,
    body: emptyBodySchema,
    responses: {
      '200': { description: 'Found: the workflow is challenge_verified.', schema: WORKFLOW_SCHEMA },
      '404': { description: 'not_found', schema: errorBodySchema },
      '409': { description: 'workflow_state_conflict: the workflow is not awaiting its challenge.', schema: errorBodySchema },
      '410': { description: 'challenge_expired: start a new workflow.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
      '422': { description: `validation_failed (every failing field), challenge_not_found, challenge_mismatch, or ${SITE_REFUSALS}`, schema: errorBodySchema },
      ...SITE_FETCH_LIMIT_RESPONSES,
    },
  },
  {
    method: 'post',
    path: `${BASE}/installation`,
    operationId: 'recordFreeInstallation',
    summary: 'Record the page the snippet goes on (201).',
    tags: TAGS,
    pathParams: PATH_PARAMS,
    body: installationSchema,
    responses: {
      '201': { description: 'Recorded: the workflow is install_recorded. Location: its code path.', schema: WORKFLOW_SCHEMA },
      '404': { description: 'not_found', schema: errorBodySchema },
      '409': { description: 'workflow_state_conflict: the challenge is not verified yet, or the installation was recorded already.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: `${BASE}/code`,
    operationId: 'getFreeInstallCode',
    summary: 'The snippet to paste (no secret in it).',
    tags: TAGS,
    pathParams: PATH_PARAMS,
    responses: {
      '200': {
        description: 'The snippet: the component\'s script tag marked with the install, and the <humanlike-check> element around the page\'s textarea.',
        schema: { type: 'object', properties: { snippet: { type: 'string' }, component_url: { type: 'string' }, page_url: { type: 'string' }, language: { const: 'html' } } },
      },
      '404': { description: 'not_found', schema: errorBodySchema },
      '409': { description: 'workflow_state_conflict: record the installation first.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'post',
    path: `${BASE}/live-verification`,
    operationId: 'verifyFreeInstallLive',
    summary: 'The service fetches the live page and confirms the snippet is on it.',
    tags: TAGS,
    pathParams: PATH_PARAMS,
    body: emptyBodySchema,
    responses: {
      '200': { description: 'Found: the install is verified (answered again, unchanged, for a verified install).', schema: WORKFLOW_SCHEMA },
      '404': { description: 'not_found', schema: errorBodySchema },
      '409': { description: 'workflow_state_conflict: record the installation first, or the install was revoked.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
      '422': { description: `validation_failed (every failing field), snippet_not_found, or ${SITE_REFUSALS}`, schema: errorBodySchema },
      ...SITE_FETCH_LIMIT_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/catalog/verified-installs/{workflow_id}',
    operationId: 'getVerifiedInstall',
    summary: 'The public proof of an install: JSON, an SVG badge or an HTML page.',
    description:
      'A verified install shows its origin, offering, verification time and last check. A revoked install shows its status without its origin. An install that was never verified is not public: 404, as for an unknown id. Every format answers Cache-Control: public, max-age=0 and a strong ETag (304 on If-None-Match): caches revalidate on each view, so a revoked badge never shows as verified.',
    tags: ['public'],
    pathParams: PATH_PARAMS,
    query: proofQuerySchema,
    responses: {
      '200': {
        description: 'The proof (format=json, default).',
        schema: { type: 'object', properties: { workflow_id: { type: 'string' }, status: { enum: ['verified', 'revoked'] }, site_origin: { type: 'string' }, verified_at: { type: 'string' } } },
        alternatives: [
          { mediaType: 'image/svg+xml', schema: { type: 'string' } },
          { mediaType: 'text/html', schema: { type: 'string' } },
        ],
      },
      '304': { description: 'Not modified: the If-None-Match tag is still the current one.' },
      '404': { description: 'install_not_verified', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
];
