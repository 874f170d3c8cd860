import type { OperationSpec } from '../http/openapi/operation';

const targetsSchema = {
  type: 'object',
  required: ['empathy', 'formality', 'directness', 'hesitation'],
  properties: {
    empathy: { type: 'number', minimum: 0, maximum: 1 },
    formality: { type: 'number', minimum: 0, maximum: 1 },
    directness: { type: 'number', minimum: 0, maximum: 1 },
    hesitation: { type: 'number', minimum: 0, maximum: 1 },
  },
};

/** OpenAPI specs of the profile routes. */
export const profileOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/profiles',
    operationId: 'getProfiles',
    summary: 'The 28 profiles: ids, names, descriptions and dimension targets.',
    tags: ['catalog'],
    responses: {
      '200': {
        description: 'Every profile in its fixed order.',
        schema: {
          type: 'object',
          required: ['count', 'profiles'],
          properties: {
            count: { type: 'integer' },
            profiles: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'name', 'description', 'targets'],
                properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, targets: targetsSchema },
              },
            },
          },
        },
      },
    },
  },
];
