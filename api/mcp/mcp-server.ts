import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { PaidToolCall } from './paid-tool';
import type { ToolCatalog } from './tool-catalog';

/** The MCP server's name and version in `initialize` (the interface description's version). */
export const MCP_SERVER_INFO = Object.freeze({ name: 'humanlike', title: 'humanlike: how human does an AI reply read', version: '1.0.0' });

const INSTRUCTIONS =
  'Scores an AI agent reply for how human it reads, against 28 human personality profiles. ' +
  'Free: list-profiles, score (3 lifetime free scores per caller, data_consent: true required), pricing, quote, leaderboard, result, stats, ' +
  'duel-prompts, duel-open, duel-state, roleplay-open, roleplay-feelings, roleplay-join, roleplay-turn, roleplay-room (pass your session_secret as an argument). ' +
  'Paid tools use x402: call without payment to get the PaymentRequired object, sign its first accepts entry (EIP-3009, USDC) ' +
  'and call again with the same arguments and the PaymentPayload in _meta["x402/payment"]. wallet_address must be the signer.';

/**
 * A new MCP server for one HTTP request (stateless Streamable HTTP: the SDK's transports serve
 * one request each). It uses the SDK's low-level `Server` because the tools' schemas are the JSON
 * schemas that validate the HTTP requests (ajv), not zod shapes.
 * @param catalog - the process's tool catalog
 * @param call - the caller of this request (its `meta` is filled per tool call)
 * @returns the server, not yet connected
 */
export function createMcpServer(catalog: ToolCatalog, call: Omit<PaidToolCall, 'meta'>): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...catalog.tools] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args, _meta } = request.params;
    const result = catalog.call(name, args, { ...call, meta: (_meta ?? {}) as Record<string, unknown> });
    if (!result) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return result;
  });
  return server;
}
