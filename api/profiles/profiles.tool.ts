import { PROFILES } from '../../shared/profiles';
import type { AgentTool } from '../http/agent-tool';

/** The profile list (`GET /api/profiles`). */
export const PROFILE_LIST = Object.freeze({
  count: PROFILES.length,
  profiles: PROFILES.map((p) => ({ id: p.id, name: p.name, description: p.description, targets: p.targets })),
});

/** The profile list as an agent tool. */
export const profilesTool: AgentTool = {
  name: 'list-profiles',
  title: 'List the human profiles',
  description: 'The 28 human personality profiles a reply is judged against (ids for target_profile), with their dimension targets. Same as GET /api/profiles.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {} },
  readOnly: true,
  run: async () => PROFILE_LIST,
};
