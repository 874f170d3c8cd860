import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, credentialResponses } from '../http/responses.schema';
import { outreachStatusSchema, outreachUpdateSchema } from './outreach.schema';

/** OpenAPI specs of the outreach status. */
export const outreachOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/outreach/status',
    operationId: 'getOutreachStatus',
    summary: 'The outreach status: a map of lead_id to done (operator).',
    tags: ['operators'],
    security: 'operatorToken',
    responses: {
      '200': { description: 'Every lead with a status, lead_id to done.', schema: outreachStatusSchema },
      ...credentialResponses('operator'),
    },
  },
  {
    method: 'post',
    path: '/api/outreach/status',
    operationId: 'updateOutreachStatus',
    summary: 'Sets the status of some leads (operator).',
    description:
      'The body is a map of lead_id to done, like the GET body; the named leads are set (created when new), the others ' +
      'keep theirs. Who set each lead and when is stored. The answer is the whole map after the update.',
    tags: ['operators'],
    security: 'operatorToken',
    body: outreachUpdateSchema,
    responses: {
      '200': { description: 'The whole map after the update.', schema: outreachStatusSchema },
      ...credentialResponses('operator'),
      '422': COMMON_RESPONSES['422'],
    },
  },
];
