import { createHash, randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import { embedCheckThroughQueue, type EmbedCheckJobResult } from '../../jobs';
import { CONTEXTUAL_EVALUATOR } from '../../shared/embed/issue-codes';
import { AppError } from '../../shared/errors';
import type { AppContext, AppState } from '../http/context';
import { createRouter } from '../http/create-router';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { BUNDLE_TOKEN_HEADER, bundleTokenHashFrom, invalidBundleToken } from '../payments/bundle-credit/bundle-token';
import { idempotencyKeyHash } from '../payments/idempotency';
import { COMPONENT_PATH, readComponentSource } from './component-asset';
import { createEmbedCapacity } from './embed-capacity';
import { claimEmbedKey } from './embed-claim';
import { IDEMPOTENCY_KEY_HEADER, KEY_RETENTION_MS, readEmbedKey } from './embed-key';
import { chargeEmbedCheck, lookupEmbedCheck, type EmbedLookup } from './embed-store';
import { EMBED_CHECK_PATH, embedCheckRequestSchema, type EmbedCheckRequest } from './embed.schema';
import { createFingerprinter } from './fingerprint';

/** Seconds a busy caller is told to wait before the identical retry. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

// Unavailable reasons worth a retry after a pause; a missing provider or a refused answer is not.
const TRANSIENT_UNAVAILABLE = new Set(['timeout', 'rate_limited', 'provider_error', 'unreachable']);

function replayed(stored: NonNullable<EmbedLookup['stored']>): Record<string, unknown> {
  return { check_id: stored.checkId, ...stored.response, billing: { credits_spent: 0, replayed: true } };
}

function conflict(): AppError {
  return new AppError(
    409,
    'idempotency_conflict',
    'This Idempotency-Key was used with different inputs (draft, mode or context); use a new key for new text. Nothing was charged.',
  );
}

/**
 * The embedded check: `POST /api/embed/check`, which a company's host server calls with its bundle
 * token and the browser component's key, and `GET` of the component itself at its versioned path.
 * Order of a check: key and token read; stored answer replayed (free) or refused as a conflict;
 * low balance refused; a contextual check without a provider answered unavailable; the key
 * claimed (a second request with it while it runs does not run); a capacity slot taken (busy: 429,
 * key left free); the check run on the `scoring` queue; then one statement takes the credit and
 * stores the answer. Nothing of the draft is stored, logged or returned.
 * @param deps - app dependencies
 * @returns the router
 */
export function embedRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const fingerprint = createFingerprinter(deps.config.freeTier.callerHashKey);
  const capacity = createEmbedCapacity(deps.config.embed.maxInFlight);
  const { enqueueTimeoutMs, waitTimeoutMs } = deps.config.jobs;
  const claimTtlMs = enqueueTimeoutMs + waitTimeoutMs + 5_000;
  const component = readComponentSource();
  const componentEtag = `"${createHash('sha256').update(component).digest('base64url').slice(0, 27)}"`;

  router.post(EMBED_CHECK_PATH, validateBody(embedCheckRequestSchema), async function checkDraft(ctx: AppContext) {
    const body = ctx.state.body as EmbedCheckRequest;
    const mode = body.mode ?? 'structural';
    const key = readEmbedKey(ctx.get(IDEMPOTENCY_KEY_HEADER), Date.now());
    const tokenHash = bundleTokenHashFrom(ctx.get(BUNDLE_TOKEN_HEADER));
    const keyHash = key ? idempotencyKeyHash(EMBED_CHECK_PATH, key.key) : null;
    const inputs = { mode, draft: body.draft, situation: body.context?.situation, incoming: body.context?.incoming_message };
    const print = fingerprint(inputs);
    ctx.set('Cache-Control', 'no-store');

    // Claimed before the lookup: whoever holds the claim either finds the stored answer or is the
    // one request that runs the check, so a finished check is never run again under its key.
    const claim = keyHash
      ? await claimEmbedKey(deps.redis, `${deps.config.redis.queuePrefix}:embed-claim:${createHash('sha256').update(`${tokenHash}\n${keyHash}`).digest('hex')}`, claimTtlMs)
      : { release: async () => undefined };
    if (!claim) {
      throw new AppError(409, 'idempotency_key_in_progress', 'A request with this Idempotency-Key is still running; retry it after Retry-After to get its answer.', {
        headers: { 'Retry-After': '1' },
      });
    }
    try {
      const found = await lookupEmbedCheck(deps.dataSource, tokenHash, keyHash);
      if (!found) throw invalidBundleToken();
      if (found.stored) {
        if (found.stored.fingerprint !== print) throw conflict();
        ctx.set('X-Payment-Replayed', 'true');
        ctx.body = replayed(found.stored);
        return;
      }
      if (found.creditsRemaining < 1) {
        throw new AppError(403, 'bundle_exhausted', 'This bundle has no credits left; buy a new bundle at POST /api/bundle. Nothing was charged.', {
          details: { credits_remaining: found.creditsRemaining, credits_needed: 1 },
        });
      }
      if (mode === 'contextual' && !deps.config.llm.provider) return unavailable(ctx, 'not_configured');
      const leave = capacity.tryEnter();
      if (!leave) {
        throw new AppError(429, 'paid_capacity_busy', 'The embedded check is at capacity; retry with the same Idempotency-Key and identical inputs after Retry-After. Nothing was charged.', {
          headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
          details: { retry_after_seconds: BUSY_RETRY_AFTER_SECONDS },
        });
      }
      let result: EmbedCheckJobResult;
      try {
        result = await embedCheckThroughQueue(
          deps.scoringQueue,
          deps.scoringEvents,
          { mode, draft: inputs.draft, situation: inputs.situation, incoming: inputs.incoming, reqId: ctx.state.reqId },
          `${found.bundleId}\n${keyHash ?? randomUUID()}`,
          { enqueueTimeoutMs, waitTimeoutMs },
        );
      } finally {
        leave();
      }
      if (!result.ok) return unavailable(ctx, result.unavailable);
      const response = { mode, evaluator: result.evaluator, offset_unit: 'utf16_code_unit', draft_length: inputs.draft.length, issues: result.issues };
      const charged = await chargeEmbedCheck(deps.dataSource, {
        bundleId: found.bundleId,
        keyHash,
        fingerprint: print,
        mode,
        response,
        expiresAtMs: (key?.issuedAtMs ?? Date.now()) + KEY_RETENTION_MS,
      });
      if (charged.kind === 'exhausted') {
        throw new AppError(403, 'bundle_exhausted', 'This bundle ran out of credits while the check ran; nothing was charged.', {
          details: { credits_remaining: 0, credits_needed: 1 },
        });
      }
      if (charged.kind === 'key_taken') {
        // Only after a claim lapsed (a check longer than its TTL): the other answer stands.
        const again = await lookupEmbedCheck(deps.dataSource, tokenHash, keyHash);
        if (!again?.stored) throw new Error('an embedded check key was taken but its answer cannot be found');
        if (again.stored.fingerprint !== print) throw conflict();
        ctx.set('X-Payment-Replayed', 'true');
        ctx.body = replayed(again.stored);
        return;
      }
      ctx.body = { check_id: charged.checkId, ...response, billing: { credits_spent: 1, credits_remaining: charged.creditsRemaining, replayed: false } };
    } finally {
      await claim.release();
    }
  });

  router.get(COMPONENT_PATH, async function serveComponent(ctx: AppContext) {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('ETag', componentEtag);
    // Host pages on any origin load it with a script tag.
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.get('if-none-match') === componentEtag) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = component;
  });

  return router;
}

/**
 * Answers a contextual check whose evaluation is unavailable: 503 with a clear code and no
 * credit taken. Written here rather than thrown: the error handler logs every 5xx as a fault,
 * and a provider being down or refused is an expected outcome, logged at warn by the worker.
 * @param ctx - Koa context
 * @param reason - why (not_configured, timeout, rate_limited, provider_error, unreachable, malformed)
 */
function unavailable(ctx: AppContext, reason: string): void {
  const transient = TRANSIENT_UNAVAILABLE.has(reason);
  ctx.state.log?.info({ code: 'contextual_unavailable', reason }, 'contextual evaluation unavailable');
  ctx.status = 503;
  if (transient) ctx.set('Retry-After', '5');
  ctx.body = {
    error: {
      code: 'contextual_unavailable',
      message:
        reason === 'not_configured'
          ? 'Contextual evaluation is not available on this service (no language-model provider is configured); use mode structural. Nothing was charged.'
          : `Contextual evaluation is unavailable right now (${reason}); nothing was charged. Retry with the same key, or use mode structural.`,
      details: { evaluator: CONTEXTUAL_EVALUATOR, reason, credits_spent: 0 },
    },
  };
}
