import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, credentialResponses, errorBodySchema } from '../http/responses.schema';
import {
  DRAFT_ID_SCHEMA,
  draftListQuerySchema,
  draftListSchema,
  draftPatchSchema,
  draftRequestSchema,
  draftSchema,
  researchRequestSchema,
  researchSchema,
} from './aei-outreach.schema';

const OUTREACH =
  "Operators' outreach to companies that could join the program: research notes on a company, then drafts for it, each scored by the " +
  'engine against the profile it should read like, so operators see how human their own message reads. The service never sends anything; ' +
  'status sent records that an operator sent it themselves.';

/** OpenAPI specs of the operators' outreach tools. */
export const aeiOutreachOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/operator/aei-outreach/research',
    operationId: 'createOutreachResearch',
    summary: 'Record research notes on a prospective company: name, site, why it fits, source.',
    description: OUTREACH,
    tags: ['operators'],
    security: 'operatorToken',
    body: researchRequestSchema,
    responses: { '201': { description: 'The note.', schema: researchSchema }, ...credentialResponses('operator'), ...COMMON_RESPONSES },
  },
  {
    method: 'get',
    path: '/api/operator/aei-outreach/drafts',
    operationId: 'listOutreachDrafts',
    summary: 'Outreach drafts with their scores, newest first (at most 500).',
    description: OUTREACH,
    tags: ['operators'],
    security: 'operatorToken',
    query: draftListQuerySchema,
    responses: { '200': { description: 'The drafts.', schema: draftListSchema }, ...credentialResponses('operator'), ...COMMON_RESPONSES },
  },
  {
    method: 'post',
    path: '/api/operator/aei-outreach/drafts',
    operationId: 'createOutreachDraft',
    summary: 'Write an outreach draft for a researched company; the engine scores it against the chosen profile.',
    description: `${OUTREACH} A research_id that is no note is 422 research_unknown naming /research_id.`,
    tags: ['operators'],
    security: 'operatorToken',
    body: draftRequestSchema,
    responses: { '201': { description: 'The draft and its score.', schema: draftSchema }, ...credentialResponses('operator'), ...COMMON_RESPONSES },
  },
  {
    method: 'patch',
    path: '/api/operator/aei-outreach/drafts/{draft_id}',
    operationId: 'updateOutreachDraft',
    summary: 'Edit a draft, approve it, or mark it sent (by an operator; the service sends nothing).',
    description:
      `${OUTREACH} draft_id is a positive integer; anything else is 422 naming /draft_id. A new body or profile is scored again and ` +
      'withdraws the approval; only an approved draft can be marked sent (409 draft_not_approved); a sent draft is final (409 draft_already_sent).',
    tags: ['operators'],
    security: 'operatorToken',
    pathParams: { draft_id: DRAFT_ID_SCHEMA },
    body: draftPatchSchema,
    responses: {
      '200': { description: 'The draft.', schema: draftSchema },
      ...credentialResponses('operator'),
      '404': { description: 'draft_not_found.', schema: errorBodySchema },
      '409': { description: 'draft_not_approved or draft_already_sent.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
];
