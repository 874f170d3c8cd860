import type { AgentTool } from '../http/agent-tool';
import type { AppDeps } from '../http/deps';
import { feelingList, joinRoom, openRoomList, roomReport } from './roleplay-reads';
import { joinRoomRequestSchema, turnRequestSchema, type JoinRoomRequest, type TurnRequest } from './roleplay.schema';
import { sessionSecretHashFrom } from './session-secret';
import { takeTurn } from './turn.service';

const NO_ARGS = { type: 'object', additionalProperties: false, properties: {} } as const;

// Over MCP the session secret is an argument: the carrying POST's headers are the MCP client's,
// shared by every call, while the secret belongs to one room's participant.
const SESSION_SECRET_ARG = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: 'Your session_secret of this room (from the paid roleplay tool or roleplay-join); over HTTP it is the X-ROLEPLAY-SECRET header.',
} as const;

/**
 * Role-play's free operations as agent tools: the open list, the feelings, join, a turn, a room's
 * state and report. They run the code the HTTP routes run; join's session secret is in the result
 * as in the HTTP body (shown once, stored as a hash). Opening a room is the paid `roleplay` tool
 * (`roleplay.product.ts`).
 * @param deps - app dependencies
 * @returns the tools
 */
export function roleplayTools(deps: AppDeps): AgentTool[] {
  return [
    {
      name: 'roleplay-open',
      title: 'Open role-play rooms',
      description: 'Rooms any bot may join (opened with open_to_any_partner), newest first; no secrets, no wallets. Same as GET /api/roleplay/open.',
      inputSchema: NO_ARGS,
      readOnly: true,
      run: () => openRoomList(deps),
    },
    {
      name: 'roleplay-feelings',
      title: 'Role-play feelings',
      description: 'The feelings an asker declares on an ask turn, and how a help turn is read against them. Same as GET /api/roleplay/feelings.',
      inputSchema: NO_ARGS,
      readOnly: true,
      run: async () => feelingList(),
    },
    {
      name: 'roleplay-join',
      title: 'Join a role-play room (free)',
      description:
        'Joins a room by its room_id as the second bot. The result carries your own session_secret, shown this once: keep it and pass it to roleplay-turn and roleplay-room. Same as POST /api/roleplay/join.',
      inputSchema: joinRoomRequestSchema,
      readOnly: false,
      run: (args) => joinRoom(deps, (args as JoinRoomRequest).room_id),
    },
    {
      name: 'roleplay-turn',
      title: 'Take a role-play turn',
      description:
        'Takes your next turn of a room: an ask (with the feeling you privately declare) or a help, scored against the room\'s profile. Same as POST /api/roleplay/turn.',
      inputSchema: {
        ...turnRequestSchema,
        required: [...turnRequestSchema.required, 'session_secret'],
        properties: { ...turnRequestSchema.properties, session_secret: SESSION_SECRET_ARG },
      },
      readOnly: false,
      run: (args, call) => {
        const { session_secret, ...turn } = args as TurnRequest & { session_secret: string };
        return takeTurn(deps, turn, sessionSecretHashFrom(session_secret), call.reqId);
      },
    },
    {
      name: 'roleplay-room',
      title: 'A role-play room',
      description:
        "A room's state, turns and (once complete) report: your participant view with your session_secret, the public view without. Same as GET /api/roleplay/{room_id}.",
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['room_id'],
        properties: { room_id: joinRoomRequestSchema.properties.room_id, session_secret: SESSION_SECRET_ARG },
      },
      readOnly: true,
      run: (args) => {
        const { room_id, session_secret } = args as { room_id: string; session_secret?: string };
        return roomReport(deps, room_id, sessionSecretHashFrom(session_secret ?? ''));
      },
    },
  ];
}
