import type Router from '@koa/router';
import type { Next } from 'koa';
import { ValidationError } from '../../shared/errors';
import type { AppContext, AppState } from '../http/context';
import { createRouter } from '../http/create-router';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import {
  draftListQuerySchema,
  draftPatchSchema,
  draftRequestSchema,
  researchRequestSchema,
  type DraftListQuery,
  type DraftPatchRequest,
  type DraftRequest,
  type ResearchRequest,
} from './aei-outreach.schema';
import { createDraft, createResearch, listDrafts, patchDraft } from './aei-outreach.store';

const MAX_ID = 2147483647;

// The checked id of a PATCH, kept beside the context rather than on the shared state type.
const draftIds = new WeakMap<AppContext, number>();

/**
 * The `{draft_id}` of a path: a positive 32-bit integer written in plain decimal, else 422.
 * @param raw - the path segment
 * @returns the id
 * @throws ValidationError naming /draft_id
 */
export function draftIdOf(raw: string): number {
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id > MAX_ID) {
    throw new ValidationError([{ path: '/draft_id', rule: 'type', message: 'must be a positive integer' }], 'draft_id must be a positive integer.');
  }
  return id;
}

/**
 * The operators' outreach to prospective program companies: research notes, and drafts that the
 * engine scores against the profile they should read like. Nothing is ever sent by the service.
 * Every path is under /api/operator, guarded by the operator credential before routing.
 * @param deps - app dependencies
 * @returns the router
 */
export function aeiOutreachRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const ds = deps.dataSource;

  router.post('/api/operator/aei-outreach/research', validateBody(researchRequestSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await createResearch(ds, ctx.state.body as ResearchRequest);
  });

  router.get('/api/operator/aei-outreach/drafts', validateQuery(draftListQuerySchema), async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { drafts: await listDrafts(ds, ctx.state.query as DraftListQuery) };
  });

  router.post('/api/operator/aei-outreach/drafts', validateBody(draftRequestSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await createDraft(ds, ctx.state.body as DraftRequest);
  });

  // The body is checked first, as on every route (a field that can never be stored is named first); then the id.
  const checkDraftId = async function checkDraftId(ctx: AppContext, next: Next): Promise<void> {
    draftIds.set(ctx, draftIdOf(ctx.params.draft_id));
    await next();
  };

  router.patch('/api/operator/aei-outreach/drafts/:draft_id', validateBody(draftPatchSchema), checkDraftId, async (ctx: AppContext) => {
    ctx.body = await patchDraft(ds, draftIds.get(ctx)!, ctx.state.body as DraftPatchRequest);
  });

  return router;
}
