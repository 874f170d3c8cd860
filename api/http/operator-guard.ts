import type { Next } from 'koa';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import { checkToken, type OperatorRole } from '../../shared/operators/credentials';
import { callerHashFor } from './caller-key';
import type { AppContext } from './context';
import { canonicalPath, isPathUnder } from './path-prefix';

/**
 * The path prefixes of operator and admin endpoints, and the role each needs. Everything at or
 * under a prefix is guarded before routing, so a path no route serves yet answers 401/403 like
 * the others, never 404: an unauthenticated caller learns nothing about what exists.
 * The roles are separate, not nested (least privilege): an admin credential does not read
 * metrics, and an operator credential changes nothing; mint one of each.
 */
export const OPERATOR_PATHS: ReadonlyArray<{ prefix: string; role: OperatorRole }> = [
  { prefix: '/api/admin', role: 'admin' },
  { prefix: '/admin', role: 'admin' },
  { prefix: '/api/operator', role: 'operator' },
  { prefix: '/api/outreach', role: 'operator' },
  { prefix: '/metrics', role: 'operator' },
];

/**
 * The role a path needs, if it is an operator or admin path, whatever its spelling (letter case,
 * escapes, doubled or trailing slashes; see {@link canonicalPath}).
 * @param path - the request path as received
 * @returns the role, or undefined for every other path
 */
export function roleForPath(path: string): OperatorRole | undefined {
  const canonical = canonicalPath(path);
  return OPERATOR_PATHS.find((p) => isPathUnder(canonical, p.prefix))?.role;
}

const REALM = 'Bearer realm="humanlike-operators"';
// The queue dashboard is a page: a browser asks for Basic credentials by itself (any user name,
// the token as the password) and sends them with every request of the page.
const BROWSER_REALM = 'Basic realm="humanlike-operators", charset="UTF-8"';
const isBrowserPath = (path: string) => isPathUnder(canonicalPath(path), '/admin');

function unauthorized(path: string, code: string, message: string, presented: boolean): AppError {
  // RFC 6750 section 3: no error attribute when no credential was sent.
  const challenge = isBrowserPath(path) ? BROWSER_REALM : presented ? `${REALM}, error="invalid_token"` : REALM;
  return new AppError(401, code, message, { headers: { 'WWW-Authenticate': challenge } });
}

/**
 * The token an Authorization header carries: `Bearer <token>`, or `Basic` with the token as the
 * password (what a browser sends to the dashboard).
 * @param header - the Authorization header
 * @returns the token, or undefined when the header has neither form
 */
export function tokenOf(header: string): string | undefined {
  const bearer = /^Bearer +(\S+)$/i.exec(header.trim());
  if (bearer) return bearer[1];
  const basic = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

const REFUSALS = {
  malformed: ['credential_invalid', 'The credential is not valid.'],
  unknown: ['credential_invalid', 'The credential is not valid.'],
  expired: ['credential_expired', 'The credential has expired; ask an admin for a new one.'],
  revoked: ['credential_revoked', 'The credential was revoked.'],
} as const;

/** Checks the request's operator or admin credential for one role; throws the guard's refusals. */
export type CredentialCheckFn = (ctx: AppContext, role: OperatorRole) => Promise<void>;

/**
 * The credential check of {@link operatorGuard}, for a public route that shows more to a
 * credential (e.g. per-vendor totals): `Authorization: Bearer hlo_...`, the same refusals (401, 403,
 * 429 after repeated failures) and the same failure counter. On success `ctx.state.credential`
 * holds the credential's id and role.
 * @param deps - config, DataSource and the producer Redis connection
 * @returns the check
 */
export function operatorCredentialCheck(deps: { config: AppConfig; dataSource: DataSource; redis: Redis }): CredentialCheckFn {
  const { authFailureLimit, authFailureWindowSeconds } = deps.config.operators;
  const failureKey = (caller: string) => `${deps.config.redis.queuePrefix}:operator-auth-failures:${caller}`;

  // Redis unreachable: the counter is skipped (logged), not the check. A 256-bit token cannot be
  // guessed anyway; the limit is defence in depth, and operators need /metrics most during outages.
  const failuresOf = async (ctx: AppContext, key: string): Promise<{ count: number; ttl: number }> => {
    try {
      const [count, ttl] = await Promise.all([deps.redis.get(key), deps.redis.ttl(key)]);
      return { count: Number(count ?? 0), ttl };
    } catch (err) {
      ctx.state.log.warn({ err }, 'operator auth rate limit unavailable');
      return { count: 0, ttl: -1 };
    }
  };
  const recordFailure = async (ctx: AppContext, key: string) => {
    try {
      await deps.redis.multi().incr(key).expire(key, authFailureWindowSeconds, 'NX').exec();
    } catch (err) {
      ctx.state.log.warn({ err }, 'operator auth rate limit unavailable');
    }
  };

  return async function checkOperatorCredential(ctx: AppContext, role: OperatorRole): Promise<void> {
    const caller = callerHashFor(ctx.ip, deps.config.freeTier.callerHashKey);
    const key = failureKey(caller);
    const log = ctx.state.log.child({ caller: caller.slice(0, 12), needs: role });
    const failures = await failuresOf(ctx, key);
    if (failures.count >= authFailureLimit) {
      const retryAfter = Math.max(1, failures.ttl);
      log.warn({ failures: failures.count }, 'operator credential attempts rate limited');
      throw new AppError(429, 'too_many_failed_credentials', 'Too many failed credential attempts; retry later.', {
        headers: { 'Retry-After': String(retryAfter) },
        details: { retry_after_seconds: retryAfter },
      });
    }
    const header = ctx.get('authorization');
    if (header === '') throw unauthorized(ctx.path, 'credential_required', 'This path needs an operator or admin credential: Authorization: Bearer <token>.', false);
    const token = tokenOf(header);
    const check = token !== undefined ? await checkToken(deps.dataSource, token) : ({ ok: false, reason: 'malformed' } as const);
    if (!check.ok) {
      await recordFailure(ctx, key);
      log.warn({ reason: check.reason }, 'operator credential refused');
      const [code, message] = REFUSALS[check.reason];
      throw unauthorized(ctx.path, code, message, true);
    }
    if (check.credential.role !== role) {
      log.info({ credentialId: check.credential.id, role: check.credential.role }, 'operator credential of the wrong role');
      throw new AppError(403, 'credential_wrong_role', `This path needs an ${role} credential.`, {
        headers: { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${role}"` },
        details: { needs: role },
      });
    }
    ctx.state.credential = { id: check.credential.id, role: check.credential.role };
  };
}

/**
 * Guards the operator and admin paths ({@link OPERATOR_PATHS}) with a bearer credential:
 * `Authorization: Bearer hlo_...` (or, for browsers on the dashboard, Basic auth with the token as
 * the password). No credential: 401 `credential_required`; an unknown, malformed,
 * expired or revoked one: 401; a valid one of the other role: 403 `credential_wrong_role`. Failed
 * attempts are counted per caller (a keyed hash of the client address) in Redis: from
 * `authFailureLimit` failures within the window, the caller gets 429 `too_many_failed_credentials`
 * until it ends, before any token is checked. Refusals are logged with the reason and a caller
 * hash prefix, never the token (the Authorization header is redacted from every log line too).
 * On success `ctx.state.credential` holds the credential's id and role.
 * @param deps - config, DataSource and the producer Redis connection
 * @returns the middleware; mount it before the routes
 */
export function operatorGuard(deps: { config: AppConfig; dataSource: DataSource; redis: Redis }) {
  const check = operatorCredentialCheck(deps);
  return async function guardOperatorPaths(ctx: AppContext, next: Next): Promise<void> {
    const role = roleForPath(ctx.path);
    if (!role) return next();
    await check(ctx, role);
    await next();
  };
}
