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

/**
 * The targets behind a verdict: the profile's own (as GET /api/profiles lists them), the
 * ones the score judged against, and why they differ. Used wherever per-dimension targets are shown.
 */
export const TARGETS_SCHEMA = {
  type: 'object',
  required: ['profile', 'adjusted', 'adjustments'],
  description:
    "The profile's dimension targets and the ones this score used. Only empathy is ever adjusted: with an incoming message, its target is the profile's x (0.5 + 0.5 x the message's emotional load), so a warm profile is not asked to pour feeling onto a practical question. Without an incoming message the profile's targets are used as they are and `adjustments` is empty.",
  properties: {
    profile: { type: 'object', additionalProperties: { type: 'number', minimum: 0, maximum: 1 }, description: "The profile's own targets." },
    adjusted: { type: 'object', additionalProperties: { type: 'number', minimum: 0, maximum: 1 }, description: 'The targets the verdict was judged against (the dimensions\' `target`).' },
    adjustments: {
      type: 'array',
      items: {
        type: 'object',
        required: ['dimension', 'profile', 'adjusted', 'reason'],
        properties: {
          dimension: { type: 'string' },
          profile: { type: 'number' },
          adjusted: { type: 'number' },
          reason: { type: 'string', description: 'Why this target differs from the profile\'s, with the numbers used.' },
        },
      },
    },
  },
} as const;
