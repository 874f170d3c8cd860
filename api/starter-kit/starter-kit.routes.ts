import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { AppError } from '../../shared/errors';
import { jsonDocument, sendCacheable } from '../http/cacheable';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { publicOrigin } from '../http/public-origin';
import { loadStarterKit, STARTER_KIT_FILES } from './starter-kit-files';

/** Where the kit is served. */
export const STARTER_KIT_PATH = '/api/starter-kit';

/** Seconds the kit's answers stay fresh (they change only with a deploy). */
export const STARTER_KIT_MAX_AGE_SECONDS = 300;

/**
 * The starter kit: an index (GET /api/starter-kit) and its files, served verbatim with their media
 * types. Unknown names are 404; a name is only ever a key of the kit, never a path.
 * @param deps - app dependencies
 * @returns the router
 */
export function starterKitRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const contents = loadStarterKit();

  router.get(STARTER_KIT_PATH, async (ctx: AppContext) => {
    const origin = publicOrigin(deps.config, ctx);
    const files = STARTER_KIT_FILES.map((f) => ({
      filename: f.filename,
      url: `${origin}${STARTER_KIT_PATH}/${f.filename}`,
      media_type: f.type.split(';')[0],
      bytes: Buffer.byteLength(contents.get(f.filename) ?? ''),
      description: f.description,
    }));
    sendCacheable(ctx, jsonDocument({ files }, STARTER_KIT_MAX_AGE_SECONDS));
  });

  router.get(`${STARTER_KIT_PATH}/:filename`, async (ctx: AppContext) => {
    const file = STARTER_KIT_FILES.find((f) => f.filename === ctx.params.filename);
    const body = file && contents.get(file.filename);
    if (!file || body === undefined) {
      throw new AppError(404, 'starter_kit_file_not_found', `The starter kit has no such file; see GET ${STARTER_KIT_PATH}.`);
    }
    ctx.set('Content-Disposition', `inline; filename="${file.filename}"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    sendCacheable(ctx, { body, type: file.type, maxAgeSeconds: STARTER_KIT_MAX_AGE_SECONDS });
  });

  return router;
}
