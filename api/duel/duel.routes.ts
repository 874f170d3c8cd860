import Router from '@koa/router';
import { findDuel, listOpenDuels } from '../../shared/duel/duel-store';
import { DUEL_PROMPTS, findDuelPrompt } from '../../shared/duel/prompts';
import { AppError, ValidationError } from '../../shared/errors';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import { resourceUrlFor } from '../payments/challenge';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { chargeAsReserved, storedAuthorizationOf } from '../payments/stored-authorization';
import { duelQuote, refuseIfSuspended } from './duel-fee';
import { joinRefusal } from './duel-refusals';
import { duelQuoteQuerySchema, duelRequestSchema, openDuelsQuerySchema, type DuelQuoteQuery, type DuelRequest, type OpenDuelsQuery } from './duel.schema';
import { runJoinDuel, runOpenDuel, type DuelEntry } from './duel.service';
import { presentDuel } from './present-duel';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The duel routes: the prompts, the open list, a duel's state, the quote, and the paid
 * POST that opens or joins a duel. Every refusal that depends on state (the duel's, the
 * wallet's suspension) is answered before the quote and before any payment.
 * @param deps - app dependencies
 * @returns the router
 */
export function duelRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.duel;
  const challengeUrlFor = (ctx: AppContext) => (duelId: string) =>
    resourceUrlFor(deps.config.payments, { protocol: ctx.protocol, host: ctx.host, path: `${product.path}/${duelId}` });

  router.get(`${product.path}/prompts`, async (ctx: AppContext) => {
    ctx.body = { prompts: DUEL_PROMPTS.map((p) => ({ prompt_id: p.id, situation: p.situation, profiles: p.profiles })) };
  });

  router.get(`${product.path}/open`, validateQuery(openDuelsQuerySchema), async (ctx: AppContext) => {
    const query = ctx.state.query as OpenDuelsQuery;
    const duels = await listOpenDuels(deps.dataSource, { limit: query.limit, promptId: query.prompt_id, targetProfile: query.target_profile });
    const urlFor = challengeUrlFor(ctx);
    ctx.body = { duels: duels.map((d) => presentDuel(d, urlFor(d.id))), count: duels.length };
  });

  router.get(`${product.path}/:duel_id`, async (ctx: AppContext) => {
    const id = ctx.params.duel_id;
    const duel = UUID.test(id) ? await findDuel(deps.dataSource, id) : undefined;
    if (!duel || !duel.challengerSettled) throw new AppError(404, 'duel_not_found', 'No duel has this duel_id.');
    ctx.body = presentDuel(duel, challengeUrlFor(ctx)(duel.id));
  });

  router.get(product.path, validateQuery(duelQuoteQuerySchema), async (ctx: AppContext) => {
    const { wallet_address } = ctx.state.query as DuelQuoteQuery;
    const { charge, fee } = await duelQuote(deps.dataSource, wallet_address, deps.network.current());
    refuseIfSuspended(fee);
    sendQuote(ctx, deps, charge);
    ctx.body = { ...(ctx.body as object), duel_fee: fee };
  });

  router.post(product.path, validateBody(duelRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as DuelRequest;
    const entry: DuelEntry = { ...body, duel_id: body.duel_id ?? '', share_answer: body.share_answer ?? false };
    const prompt = findDuelPrompt(entry.prompt_id);
    if (!prompt?.profiles.includes(entry.target_profile)) {
      throw new ValidationError(
        [{ path: '/target_profile', rule: 'prompt_profiles', message: `must be one of prompt ${entry.prompt_id}'s profiles: ${prompt?.profiles.join(', ')}` }],
        'This prompt does not suit that profile; see GET /api/duel/prompts.',
      );
    }
    const duelId = entry.duel_id ?? '';
    const requestHash = canonicalHash({ path: ctx.path, body: entry });
    // A retry of a paid request replays its stored answer: the duel it resolved and the fee its
    // verdict escalated must not refuse it, and it is held to the amount it was reserved at.
    const stored = await storedAuthorizationOf(ctx, deps, requestHash);
    if (duelId !== '' && !stored) {
      const refusal = joinRefusal(await findDuel(deps.dataSource, duelId), entry);
      if (refusal) throw refusal;
    }
    const quote = await duelQuote(deps.dataSource, entry.wallet_address, deps.network.current());
    if (!stored) refuseIfSuspended(quote.fee);
    const charge = stored ? chargeAsReserved(quote.charge, stored) : quote.charge;
    const work = { challengeUrlFor: challengeUrlFor(ctx), fee: quote.fee, reqId: ctx.state.reqId };
    await pay(ctx, deps, { charge, wallet: entry.wallet_address, requestHash, nonFinalNote: { duel_fee: quote.fee } }, (paid) =>
      duelId !== '' ? runJoinDuel(deps, { ...entry, duel_id: duelId }, paid, work) : runOpenDuel(deps, entry, paid, work),
    );
  });

  return router;
}
