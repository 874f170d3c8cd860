import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';

/** OpenAPI specs of the corpus routes. */
export const corpusOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/corpus/evidence',
    operationId: 'getCorpusEvidence',
    summary: 'Public aggregate evidence of the consented free corpus (counts only, no text).',
    tags: ['catalog'],
    responses: {
      '200': {
        description: 'Counts overall and per profile.',
        schema: {
          type: 'object',
          required: ['total_entries', 'per_profile'],
          properties: {
            generated_at: { type: 'string', format: 'date-time' },
            scope: { type: 'string' },
            total_entries: { type: 'integer' },
            entries_without_profile: { type: 'integer' },
            per_profile: {
              type: 'array',
              items: { type: 'object', properties: { profile: { type: 'string' }, entries: { type: 'integer' } } },
            },
            privacy: { type: 'string' },
          },
        },
      },
      '503': { description: 'database_unavailable.', schema: errorBodySchema },
    },
  },
];
