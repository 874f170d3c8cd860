import { CallToolRequestSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC error answer for a `tools/call` whose params are not what the protocol says. */
export interface InvalidCallParams {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string };
}

/**
 * Checks a `tools/call` request's params against the SDK's own schema before the SDK sees them.
 * The SDK parses them inside the request handler and reports a failure as an internal error
 * (-32603) carrying the raw schema dump; a caller's malformed params are its mistake, so they are
 * answered as JSON-RPC says: -32602 invalid params, with one short sentence.
 * @param message - the parsed JSON-RPC body
 * @returns the error answer, or undefined when the message is not a malformed `tools/call`
 */
export function invalidCallParams(message: unknown): InvalidCallParams | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const parsed = CallToolRequestSchema.safeParse(message);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join('.') : 'params';
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${where} ${issue.message.toLowerCase()}.` } };
}
