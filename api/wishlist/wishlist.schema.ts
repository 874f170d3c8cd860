import type { BodyOf } from '../http/ajv';
/** Categories a wishlist item may carry. */
export const WISHLIST_CATEGORIES = ['feature', 'profile', 'integration', 'pricing', 'bug', 'other'] as const;

/** Longest wishlist item, in UTF-16 code units. */
export const WISHLIST_MAX_CHARS = 1000;

/** JSON schema of {@link WishlistRequest}. */
export const wishlistRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: {
      type: 'string',
      minLength: 1,
      maxLength: WISHLIST_MAX_CHARS,
      pattern: '\\S',
      description: 'What you wish the service did (a feature, a profile, an integration, ...).',
    },
    category: { type: 'string', enum: WISHLIST_CATEGORIES },
  },
} as const;

/** Body of `POST /api/wishlist`. */
export type WishlistRequest = BodyOf<typeof wishlistRequestSchema>;
