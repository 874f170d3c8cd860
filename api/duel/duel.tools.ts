import type { AgentTool } from '../http/agent-tool';
import type { AppDeps } from '../http/deps';
import { DUEL_ID_SCHEMA, openDuelsQuerySchema, type OpenDuelsQuery } from './duel.schema';
import { duelPromptList, duelState, duelUrlFor, openDuelList } from './duel-reads';

const NO_ARGS = { type: 'object', additionalProperties: false, properties: {} } as const;

/**
 * The duel's free reads as agent tools: the prompts, the open list, a duel's state. They run the
 * code the HTTP routes run, with the same masking (truncated wallets; answers only when both share).
 * The paid entry is the `duel` tool (`duel.product.ts`).
 * @param deps - app dependencies
 * @returns the tools
 */
export function duelTools(deps: AppDeps): AgentTool[] {
  return [
    {
      name: 'duel-prompts',
      title: 'Duel prompts',
      description: 'The situations a duel is played on, each with the profiles it suits (prompt_id and target_profile of the duel tool). Same as GET /api/duel/prompts.',
      inputSchema: NO_ARGS,
      readOnly: true,
      run: async () => duelPromptList(),
    },
    {
      name: 'duel-open',
      title: 'Open duels',
      description: 'Open duels waiting for an opponent, newest first; join one with the paid duel tool and its duel_id. Same as GET /api/duel/open.',
      inputSchema: openDuelsQuerySchema,
      readOnly: true,
      run: async (args, call) => {
        const query = args as Partial<OpenDuelsQuery>;
        return openDuelList(deps, { ...query, limit: query.limit ?? openDuelsQuerySchema.properties.limit.default }, duelUrlFor(call));
      },
    },
    {
      name: 'duel-state',
      title: 'A duel',
      description: "A duel's public state: open, expired, or resolved with its winner. Same as GET /api/duel/{duel_id}.",
      inputSchema: { type: 'object', additionalProperties: false, required: ['duel_id'], properties: { duel_id: { ...DUEL_ID_SCHEMA, description: 'The duel.' } } },
      readOnly: true,
      run: async (args, call) => duelState(deps, (args as { duel_id: string }).duel_id, duelUrlFor(call)),
    },
  ];
}
