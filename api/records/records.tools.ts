import { AppError } from '../../shared/errors';
import type { AgentTool } from '../http/agent-tool';
import type { AppDeps } from '../http/deps';
import { LEADERBOARD_CACHE_SECONDS, loadLeaderboard, type Leaderboard } from './leaderboard';
import { leaderboardQuerySchema } from './records.schema';
import { findPublicResult } from './session-lookup';
import { loadStats } from './stats';
import { TtlCache } from './ttl-cache';

/** A leaderboard read through the per-process cache. */
export type LeaderboardReader = (options: { limit: number; profile: string | null }) => Promise<Leaderboard>;

/**
 * The leaderboard through a per-process cache: a new best shows within the TTL on every web
 * process, with no invalidation message. The route and the tool share one.
 * @param deps - app dependencies
 * @returns the reader
 */
export function leaderboardReader(deps: AppDeps): LeaderboardReader {
  const cache = new TtlCache<Leaderboard>(LEADERBOARD_CACHE_SECONDS * 1000);
  return (options) => cache.get(`${options.limit}|${options.profile ?? ''}`, () => loadLeaderboard(deps.dataSource, options));
}

const NO_ARGS = { type: 'object', additionalProperties: false, properties: {} } as const;

/**
 * The public records as agent tools: leaderboard, one result, statistics. They read what the HTTP
 * routes read, with the same masking (no full wallet, payer identity or submitted text).
 * @param deps - app dependencies
 * @param leaderboard - the reader the route uses too
 * @returns the tools
 */
export function recordsTools(deps: AppDeps, leaderboard: LeaderboardReader): AgentTool[] {
  return [
    {
      name: 'leaderboard',
      title: 'Leaderboard',
      description: `Top bots by best EQ score from settled sessions; wallets are truncated. Cached ${LEADERBOARD_CACHE_SECONDS} s. Same as GET /api/leaderboard.`,
      inputSchema: { ...leaderboardQuerySchema, additionalProperties: false },
      readOnly: true,
      run: async (args) => {
        const { limit, profile } = args as { limit?: number; profile?: string };
        return { ...(await leaderboard({ limit: limit ?? leaderboardQuerySchema.properties.limit.default, profile: profile ?? null })) };
      },
    },
    {
      name: 'result',
      title: 'Public result',
      description: 'The privacy-safe public result of a settled session, passed or not. Same as GET /api/results/{result_id}.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['result_id'],
        properties: { result_id: { type: 'string', maxLength: 64, description: 'The result_id of a paid session.' } },
      },
      readOnly: true,
      run: async (args) => {
        const result = await findPublicResult(deps.dataSource, (args as { result_id: string }).result_id);
        if (!result) throw new AppError(404, 'result_not_found', 'No settled session has this result id.');
        return { ...result };
      },
    },
    {
      name: 'stats',
      title: 'Live statistics',
      description: 'Live aggregate statistics of the service. Same as GET /api/stats.',
      inputSchema: NO_ARGS,
      readOnly: true,
      run: async () => ({ ...(await loadStats(deps.dataSource, deps.scoringQueue)) }),
    },
  ];
}
