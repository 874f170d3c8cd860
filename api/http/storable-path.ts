import type { Next } from 'koa';
import { ValidationError } from '../../shared/errors';
import { STORABLE_TEXT } from './ajv';
import type { AppContext } from './context';

// An escaped NUL anywhere in the path: `%00`, in either letter case.
const ESCAPED_NUL = /%00/i;

/**
 * Refuses a path that carries an escaped NUL (`/api/referral/status/%00`): a path parameter is
 * decoded by the router and looked up in PostgreSQL, whose text type cannot hold U+0000. Bodies,
 * queries and tool arguments are held to the same rule by their validators (`api/http/ajv.ts`).
 * @returns the middleware; mount it before the routes
 * @throws ValidationError 422 naming `path`
 */
export function storablePath() {
  return async function refuseUnstorablePath(ctx: AppContext, next: Next): Promise<void> {
    if (ESCAPED_NUL.test(ctx.path)) {
      throw new ValidationError([{ path: 'path', rule: STORABLE_TEXT, message: 'must not contain U+0000 (NUL)' }]);
    }
    await next();
  };
}
