import { findDuel, listOpenDuels } from '../../shared/duel/duel-store';
import { DUEL_PROMPTS } from './duel-prompts';
import { AppError } from '../../shared/errors';
import { PRODUCTS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import type { OpenDuelsQuery } from './duel.schema';
import { presentDuel } from './present-duel';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Builds a duel's public URL (its challenge_url). */
export type DuelUrlFor = (duelId: string) => string;

/**
 * A duel's public URL on the origin the call reached (`PUBLIC_BASE_URL` when configured).
 * @param call - the call's public-URL builder (HTTP request or MCP tool call)
 * @returns the builder
 */
export function duelUrlFor(call: { publicUrl(path: string): string }): DuelUrlFor {
  return (duelId) => call.publicUrl(`${PRODUCTS.duel.path}/${duelId}`);
}

/**
 * The duel prompts (`GET /api/duel/prompts`).
 * @returns the body
 */
export function duelPromptList(): Record<string, unknown> {
  return { prompts: DUEL_PROMPTS.map((p) => ({ prompt_id: p.id, situation: p.situation, profiles: p.profiles })) };
}

/**
 * The open duels, newest first (`GET /api/duel/open`).
 * @param deps - app dependencies
 * @param query - the validated filter (limit applied by its schema's default)
 * @param urlFor - a duel's public URL
 * @returns the body
 */
export async function openDuelList(deps: AppDeps, query: OpenDuelsQuery, urlFor: DuelUrlFor): Promise<Record<string, unknown>> {
  const duels = await listOpenDuels(deps.dataSource, { limit: query.limit, promptId: query.prompt_id, targetProfile: query.target_profile });
  return { duels: duels.map((d) => presentDuel(d, urlFor(d.id))), count: duels.length };
}

/**
 * One duel's public state (`GET /api/duel/{duel_id}`). A duel whose challenger has not paid yet
 * does not exist for anyone.
 * @param deps - app dependencies
 * @param id - the duel id as sent
 * @param urlFor - a duel's public URL
 * @returns the body
 * @throws AppError 404 duel_not_found
 */
export async function duelState(deps: AppDeps, id: string, urlFor: DuelUrlFor): Promise<Record<string, unknown>> {
  const duel = UUID.test(id) ? await findDuel(deps.dataSource, id) : undefined;
  if (!duel || !duel.challengerSettled) throw new AppError(404, 'duel_not_found', 'No duel has this duel_id.');
  return presentDuel(duel, urlFor(duel.id));
}
