import { findDuel } from '../../shared/duel/duel-store';
import { findDuelPrompt } from './duel-prompts';
import { ValidationError } from '../../shared/errors';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { PaidProduct } from '../payments/paid-product';
import { storedAuthorizationOf } from '../payments/stored-authorization';
import { duelQuote, refuseIfSuspended } from './duel-fee';
import { duelUrlFor } from './duel-reads';
import { joinRefusal } from './duel-refusals';
import { duelRequestSchema, type DuelRequest } from './duel.schema';
import { runJoinDuel, runOpenDuel, type DuelEntry } from './duel.service';

/**
 * The duel entry (open or join) as every transport sells it. Every refusal that depends on state
 * (the duel's, the wallet's suspension) is answered in `prepare`, before the quote and before any
 * payment; a retry of a payment already reserved for this very request is answered from its stored
 * authorization instead (the duel it resolved and the fee its verdict escalated must not refuse it).
 * @param deps - app dependencies
 * @returns the paid product
 */
export function duelProduct(deps: AppDeps): PaidProduct {
  const product = PRODUCTS.duel;
  return {
    product,
    requestSchema: duelRequestSchema,
    async quote({ wallet_address }) {
      const { charge, fee } = await duelQuote(deps.dataSource, wallet_address, deps.network.current());
      refuseIfSuspended(fee);
      return { ...charge, note: { duel_fee: fee } };
    },
    async prepare(sent, call) {
      const body = sent as DuelRequest;
      const entry: DuelEntry = { ...body, duel_id: body.duel_id ?? '', share_answer: body.share_answer ?? false };
      const prompt = findDuelPrompt(entry.prompt_id);
      if (!prompt?.profiles.includes(entry.target_profile)) {
        throw new ValidationError(
          [{ path: '/target_profile', rule: 'prompt_profiles', message: `must be one of prompt ${entry.prompt_id}'s profiles: ${prompt?.profiles.join(', ')}` }],
          'This prompt does not suit that profile; see GET /api/duel/prompts.',
        );
      }
      const duelId = entry.duel_id ?? '';
      const requestHash = canonicalHash({ path: product.path, body: entry });
      // A retry of a paid request replays its stored answer (the pipeline finds it whatever the fee is
      // now): the duel it resolved and the fee its verdict escalated must not refuse it here.
      const stored = await storedAuthorizationOf(call, deps, requestHash);
      if (duelId !== '' && !stored) {
        const refusal = joinRefusal(await findDuel(deps.dataSource, duelId), entry);
        if (refusal) throw refusal;
      }
      const quote = await duelQuote(deps.dataSource, entry.wallet_address, deps.network.current());
      if (!stored) refuseIfSuspended(quote.fee);
      const context = { challengeUrlFor: duelUrlFor(call), fee: quote.fee, reqId: call.reqId };
      return {
        request: { charge: quote.charge, wallet: entry.wallet_address, requestHash, nonFinalNote: { duel_fee: quote.fee } },
        work: (paid) => (duelId !== '' ? runJoinDuel(deps, { ...entry, duel_id: duelId }, paid, context) : runOpenDuel(deps, entry, paid, context)),
      };
    },
  };
}
