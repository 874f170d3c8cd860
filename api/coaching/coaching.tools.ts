import type { AgentTool } from '../http/agent-tool';
import { presentCatalog } from './present-coaching';

const NO_ARGS = { type: 'object', additionalProperties: false, properties: {} } as const;

/**
 * Coaching's free read as an agent tool: the pack catalog an enrollment names its `pack_id` from.
 * Enrolling is the paid `coaching` tool (`coaching.product.ts`); drills are taken over HTTP with
 * the enrollment's secret (`POST /api/coaching/drill`).
 */
export const coachingTools: AgentTool[] = [
  {
    name: 'coaching-packs',
    title: 'Coaching packs',
    description: 'The coaching packs: each a named set of drills (a situation, a target profile and the bar to clear) and its average bar. Same as GET /api/coaching/packs.',
    inputSchema: NO_ARGS,
    readOnly: true,
    run: async () => presentCatalog(),
  },
];
