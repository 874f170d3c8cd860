/** The error body of every status but 402. */
export const errorBodySchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', description: 'Stable snake_case code.' },
        message: { type: 'string', description: 'One human sentence.' },
        details: { description: 'Machine-readable detail, or null.' },
      },
    },
  },
} as const;

/** The 422 body: every failing field with its JSON path. */
export const validationErrorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', examples: ['validation_failed', 'data_consent_required', 'invalid_json'] },
        message: { type: 'string' },
        details: {
          type: 'object',
          required: ['fields'],
          properties: {
            fields: {
              type: 'array',
              items: {
                type: 'object',
                required: ['path', 'rule', 'message'],
                properties: {
                  path: { type: 'string', description: 'JSON pointer of the field ("" for the whole body).' },
                  rule: { type: 'string', description: 'The rule that failed (type, required, maxLength, const, ...).' },
                  message: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

/** Shorthands for responses every operation may give. */
export const COMMON_RESPONSES = {
  '422': { description: 'Validation failure; every failing field is listed with its JSON path.', schema: validationErrorSchema },
  '500': { description: 'Server fault (logged with the request id).', schema: errorBodySchema },
} as const;
