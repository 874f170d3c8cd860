import type { OperationSpec } from '../http/openapi/operation';

/** OpenAPI specs of the pricing routes. */
export const pricingOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/pricing',
    operationId: 'getPricing',
    summary: 'Pricing manifest: one member per product, base quotes, treasury addresses.',
    tags: ['catalog'],
    responses: { '200': { description: 'The manifest (the live 402 quote is authoritative).', schema: { type: 'object' } } },
  },
];
