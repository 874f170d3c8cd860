import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { wishlistRequestSchema } from './wishlist.schema';

/** OpenAPI specs of the wishlist route. */
export const wishlistOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/wishlist',
    operationId: 'postWishlistItem',
    summary: 'Free feedback item; capped per caller. One item unlocks the third free score.',
    tags: ['free tier'],
    body: wishlistRequestSchema,
    responses: {
      '201': {
        description: 'Received.',
        schema: {
          type: 'object',
          required: ['status', 'items_submitted', 'items_remaining'],
          properties: {
            status: { const: 'received' },
            items_submitted: { type: 'integer' },
            items_remaining: { type: 'integer' },
          },
        },
      },
      '415': { description: 'unsupported_media_type: send application/json.', schema: errorBodySchema },
      '422': COMMON_RESPONSES['422'],
      '429': { description: 'wishlist_cap_reached: this caller has submitted the maximum number of items.', schema: errorBodySchema },
      '503': { description: 'database_unavailable.', schema: errorBodySchema },
    },
  },
];
