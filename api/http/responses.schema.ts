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

/**
 * The refusals of an operator or admin operation (`operatorGuard`, before routing).
 * @param role - the role the operation needs
 * @returns the 401, 403 and 429 responses
 */
export function credentialResponses(role: 'operator' | 'admin') {
  const other = role === 'admin' ? 'an operator' : 'an admin';
  return {
    '401': { description: 'credential_required, credential_invalid, credential_expired or credential_revoked (with WWW-Authenticate).', schema: errorBodySchema },
    '403': { description: `credential_wrong_role: ${other} credential; this needs an ${role} credential.`, schema: errorBodySchema },
    '429': { description: 'too_many_failed_credentials: too many failed credential attempts from this caller (Retry-After).', schema: errorBodySchema },
  };
}
