import Router from '@koa/router';
import { isDatabaseUnavailable } from '../../shared/db/db-errors';
import { UnavailableError } from '../../shared/errors';
import { PROFILES } from '../../shared/profiles';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { readCorpusEvidence } from '../corpus/corpus-evidence';
import type { OperationSpec } from '../http/openapi/operation';
import { buildPricingManifest } from './pricing-manifest';
import { errorBodySchema } from '../http/responses.schema';

const PROFILE_LIST = Object.freeze({
  count: PROFILES.length,
  profiles: PROFILES.map((p) => ({ id: p.id, name: p.name, description: p.description, targets: p.targets })),
});

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

/** OpenAPI specs of the public read routes. */
export const catalogOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/pricing',
    operationId: 'getPricing',
    summary: 'Pricing manifest: one member per product, base quotes, treasury addresses.',
    tags: ['catalog'],
    responses: { '200': { description: 'The manifest (the live 402 quote is authoritative).', schema: { type: 'object' } } },
  },
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

/**
 * Public read routes: pricing, profiles and corpus evidence.
 * @param deps - app dependencies
 * @returns the router
 */
export function catalogRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const manifest = Object.freeze(buildPricingManifest(deps.config.payments, deps.config.freeTier));

  router.get('/api/pricing', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = manifest;
  });

  router.get('/api/profiles', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = PROFILE_LIST;
  });

  router.get('/api/corpus/evidence', async (ctx: AppContext) => {
    ctx.body = await readCorpusEvidence(deps.dataSource).catch((err: unknown) => {
      if (isDatabaseUnavailable(err)) throw new UnavailableError('database_unavailable', 'The database is unreachable; retry later.', { cause: err });
      throw err;
    });
  });

  return router;
}
