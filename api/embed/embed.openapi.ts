import { CONTEXTUAL_EVALUATOR, ISSUE_CODES, STRUCTURAL_EVALUATOR } from '../../shared/embed/issue-codes';
import { CONTEXTUAL_TIMEOUT_MS } from '../../shared/embed/contextual-evaluator';
import { PRODUCT_TERMS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { COMPONENT_PATH } from './component-asset';
import { EMBED_KEY_PATTERN } from './embed-key';
import { EMBED_CHECK_PATH, embedCheckRequestSchema, embedCheckResponseSchema } from './embed.schema';

const RETENTION = PRODUCT_TERMS.embedReplayRetentionSeconds;

const CODE_LIST = [...ISSUE_CODES.values()].map((c) => `\`${c.code}\` (${c.source}, ${c.severity}): ${c.meaning}`).join('; ');

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before the identical retry.', schema: { type: 'string' } } };

const DESCRIPTION = [
  'A proxy target for a company-owned host server: the host forwards its users\' drafts server-to-server with its own bundle token ' +
    '(X-BUNDLE-TOKEN; only an existing prepaid bundle is accepted, no anonymous, free or per-call use) while people type, and the answer ' +
    'marks where the draft reads machine-like. The browser component (`<humanlike-check>`, served at ' + COMPONENT_PATH + ') talks to the host, never to this service.',
  `Idempotency-Key: \`embed-<13-digit ms timestamp>-<opaque suffix>\` (pattern ${EMBED_KEY_PATTERN}); one key per text. ` +
    `A key older than ${RETENTION} s (its own timestamp) is refused (422 idempotency_key_expired), as is one stamped more than 5 minutes ahead ` +
    '(422 idempotency_key_from_future) or malformed (422 invalid_idempotency_key). Without a key, every request is a new charge with no replay.',
  `Billing: one basic bundle credit per accepted new key. The same key with identical inputs (draft, mode, context) within ${RETENTION} s ` +
    'replays the stored answer free (header X-Payment-Replayed: true, billing.credits_spent 0). The same key with changed inputs is ' +
    '409 idempotency_conflict (nothing charged). A second request with a key whose check is still running is 409 idempotency_key_in_progress ' +
    'with Retry-After (it does not run twice). A bundle with no credit left is refused before any work (403 bundle_exhausted). The credit ' +
    'is taken and the answer stored in one statement after the check ran: any failure leaves the key free and the credit unspent.',
  'Capacity: when this check is at capacity the answer is 429 paid_capacity_busy with Retry-After; nothing is charged and the key stays free: ' +
    'retry with the same key and identical inputs. Never pay again because a request was busy.',
  `Modes: structural (default, ${STRUCTURAL_EVALUATOR}) runs the scoring engine\'s profile-free machine-like signals. contextual also runs ` +
    `${CONTEXTUAL_EVALUATOR} on an OpenAI-compatible language model the operator configures (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL): one call ` +
    `per accepted key, ${CONTEXTUAL_TIMEOUT_MS / 1000} s timeout, no retries, no tools. Only in contextual mode is the draft sent to that provider. ` +
    'Its output is untrusted: only known codes with in-range offsets are accepted; anything else, a timeout, a 429 or a 5xx from the provider, ' +
    'or no provider configured is 503 contextual_unavailable (details.reason) and uses no credit.',
  'Answer: issue codes from this fixed list, each with a half-open range of UTF-16 code units into the draft (as JavaScript strings index ' +
    `it: an emoji outside the BMP counts 2, a combining mark 1), a severity and a short fix: ${CODE_LIST}. ` +
    'The answer never quotes the draft, and nothing of it is stored: the stored answer holds codes and offsets, and key reuse is detected ' +
    'with an HMAC of the inputs under a server secret (a plain hash of a short draft could be guessed).',
].join('\n\n');

/** OpenAPI specs of the embedded check and its browser component. */
export const embedOperations: OperationSpec[] = [
  {
    method: 'post',
    path: EMBED_CHECK_PATH,
    operationId: 'checkEmbeddedDraft',
    summary: 'Check a draft as it is typed (host server to service, one bundle credit per new key).',
    description: DESCRIPTION,
    tags: ['paid'],
    body: embedCheckRequestSchema,
    headers: [
      { name: 'X-BUNDLE-TOKEN', description: 'The company\'s prepaid bundle token (required).', schema: { type: 'string' }, required: true },
      { name: 'Idempotency-Key', description: `embed-<13-digit ms timestamp>-<opaque suffix>; one per text; replays are free for ${RETENTION} s.`, schema: { type: 'string', pattern: EMBED_KEY_PATTERN } },
    ],
    responses: {
      '200': {
        description: 'The issues. X-Payment-Replayed: true on a free replay of a stored answer.',
        schema: embedCheckResponseSchema,
        headers: { 'X-Payment-Replayed': { description: '"true" when this is the stored answer of the key (no credit used).', schema: { type: 'string' } } },
      },
      '401': { description: 'bundle_token_required or invalid_bundle_token.', schema: errorBodySchema },
      '403': { description: 'bundle_exhausted: no credit left; refused before any work, nothing charged.', schema: errorBodySchema },
      '409': { description: 'idempotency_conflict (the key was used with other inputs) or idempotency_key_in_progress (with Retry-After).', schema: errorBodySchema, headers: RETRY_AFTER },
      '429': { description: 'paid_capacity_busy: retry the identical request with the same key after Retry-After; nothing charged.', schema: errorBodySchema, headers: RETRY_AFTER },
      '503': {
        description:
          'contextual_unavailable (details.reason: not_configured, timeout, rate_limited, provider_error, unreachable, malformed; Retry-After when worth a retry), ' +
          'or queue_unavailable / database_unavailable. Nothing charged.',
        schema: errorBodySchema,
        headers: RETRY_AFTER,
      },
      '504': { description: 'job_timeout: the check did not finish in time; nothing charged, the key is free.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: COMPONENT_PATH,
    operationId: 'getEmbedComponent',
    summary: 'The <humanlike-check> browser component (one dependency-free script; major version in the path).',
    description:
      'Load it with <script type="module" src="…' + COMPONENT_PATH + '"></script> and wrap a textarea: ' +
      '<humanlike-check endpoint="/your/host/route"><textarea></textarea></humanlike-check>. It checks about 800 ms after typing stops, ' +
      'starts at most one check every 2 s, retries 429, 503 and network failures with the same key within a budget (honouring Retry-After), ' +
      'makes a new key for new text, discards answers for text that has changed, and draws keyboard-reachable marks with each fix over the ' +
      'textarea. It calls only the host\'s endpoint: the bundle token stays on the host server.',
    tags: ['public'],
    responses: { '200': { description: 'The script.', mediaType: 'text/javascript', schema: { type: 'string' } }, '304': { description: 'Not modified (ETag).' } },
  },
];
