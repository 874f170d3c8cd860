import type { BodyOf } from '../http/ajv';

/** A lead id: a letter or digit, then up to 63 letters, digits, `_`, `.`, `:` or `-` (the table's check). */
export const LEAD_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$';

/** Most leads one update may set. */
export const MAX_OUTREACH_UPDATE = 500;

/** The map of lead_id to done: the GET body, and the POST update body. */
export const outreachStatusSchema = {
  type: 'object',
  description: 'A map of lead_id to done.',
  propertyNames: { pattern: LEAD_ID_PATTERN },
  additionalProperties: { type: 'boolean' },
} as const;

/** The body of `POST /api/outreach/status`: the leads to set, each to done (true) or not (false). */
export const outreachUpdateSchema = {
  ...outreachStatusSchema,
  description: `Leads to set (1 to ${MAX_OUTREACH_UPDATE}), each lead_id to done; leads not named keep their status.`,
  minProperties: 1,
  maxProperties: MAX_OUTREACH_UPDATE,
} as const;

/** A validated update: lead_id to done. */
export type OutreachUpdate = BodyOf<typeof outreachUpdateSchema>;
