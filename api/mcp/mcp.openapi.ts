import type { OperationSpec } from '../http/openapi/operation';

const jsonRpcMessage = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    method: { type: 'string', description: 'initialize, tools/list, tools/call, ping, notifications/initialized, ...' },
    params: { type: 'object' },
    result: { type: 'object' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
  },
} as const;

const jsonRpcError = {
  type: 'object',
  required: ['jsonrpc', 'error', 'id'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
    id: { type: 'null' },
  },
} as const;

const notOffered: OperationSpec['responses'] = {
  '405': {
    description: 'Always: no SSE stream and no sessions are offered (stateless endpoint). Header Allow: POST.',
    schema: jsonRpcError,
    headers: { Allow: { description: 'POST', schema: { type: 'string' } } },
  },
};

/** OpenAPI specs of the MCP endpoint. */
export const mcpOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/mcp',
    operationId: 'postMcp',
    summary: 'MCP endpoint: stateless Streamable HTTP, JSON-RPC 2.0, JSON response mode.',
    description:
      'One JSON-RPC message per POST (Content-Type: application/json; Accept must list application/json and text/event-stream; ' +
      'MCP-Protocol-Version as the MCP spec says). No session: no Mcp-Session-Id is issued, any request may come without initialize. ' +
      'Tools: list-profiles, score (the free tier, same consent and cap rules as POST /api/score), pricing, quote, leaderboard, result, ' +
      'stats, duel-prompts, duel-open, duel-state (the duel\'s free reads), roleplay-open, roleplay-feelings, roleplay-join, roleplay-turn, ' +
      'roleplay-room (role-play\'s free operations; the session secret is the session_secret argument instead of the X-ROLEPLAY-SECRET ' +
      'header, and roleplay-join\'s result carries the joiner\'s secret once, as the HTTP body does), and one tool per paid catalog product ' +
      'named by its id (simulate, duel, script-check, roleplay, bundle, stress-test, rewrite, progress, training-dataset), whose input ' +
      'schema is the request body schema of its POST path. Payments follow the x402 MCP transport: a ' +
      'paid tool called without payment returns a result with isError: true whose structuredContent is the PaymentRequired object (the ' +
      'same body as the HTTP 402, resource.url mcp://tool/<name>); call again with the same arguments and the PaymentPayload object in ' +
      'params._meta["x402/payment"] (resource.url must be mcp://tool/<name>); the result then carries the SettleResponse in ' +
      '_meta["x402/payment-response"] (and _meta["humanlike/payment-replayed"]: true when it replays an earlier delivery). A refused ' +
      'settlement returns the PaymentRequired result again and no output, its SettleResponse (success: false) in ' +
      '_meta["x402/payment-response"]. A basic simulate may instead carry a bundle token in ' +
      'params._meta["humanlike/bundle-token"]. Reservation, replay, 409, ledger, live feed and receipts are those of the HTTP routes. ' +
      'Tool failures (validation, refusals) are isError results whose structuredContent is the HTTP error body plus error.status. ' +
      'A browser Origin other than the public base URL and MCP_ALLOWED_ORIGINS is refused with 403.',
    tags: ['agents'],
    headers: [
      { name: 'MCP-Protocol-Version', description: 'The negotiated MCP protocol version (2025-03-26 assumed when absent).', schema: { type: 'string' } },
      { name: 'Origin', description: 'Browsers send it; it must be an allowed origin.', schema: { type: 'string' } },
    ],
    body: jsonRpcMessage,
    responses: {
      '200': { description: 'The JSON-RPC response (application/json).', schema: jsonRpcMessage },
      '202': { description: 'A notification or response was accepted (no body).' },
      '400': { description: 'Invalid JSON-RPC (-32600), an unparsable body (-32700) or an unsupported MCP-Protocol-Version.', schema: jsonRpcError },
      '403': { description: 'The Origin is not allowed (DNS-rebinding protection).', schema: jsonRpcError },
      '406': { description: 'Accept does not list both application/json and text/event-stream.', schema: jsonRpcError },
      '413': { description: 'The body is larger than the configured limit.', schema: jsonRpcError },
      '415': { description: 'Content-Type is not application/json.', schema: jsonRpcError },
    },
  },
  { method: 'get', path: '/api/mcp', operationId: 'getMcp', summary: 'SSE stream establishment: not offered (405).', tags: ['agents'], responses: notOffered },
  { method: 'delete', path: '/api/mcp', operationId: 'deleteMcp', summary: 'Session termination: not offered, no sessions (405).', tags: ['agents'], responses: notOffered },
];
