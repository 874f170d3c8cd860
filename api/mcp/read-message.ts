import type { IncomingMessage } from 'node:http';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** A POST body read as JSON-RPC: the parsed message(s), or the JSON-RPC error to answer. */
export type ReadMessage = { ok: true; message: unknown } | { ok: false; status: number; code: number; message: string };

/**
 * Reads and parses the body of an MCP POST: at most `limitBytes`, JSON, and a JSON-RPC message
 * (or a batch of them). JSON-RPC 2.0 gives -32700 to a body that is not JSON and -32600 to JSON
 * that is not a message; the SDK's transport gives -32700 to both, so the body is checked here and
 * handed to it parsed.
 * @param req - the Node request (its body not read yet)
 * @param limitBytes - the largest body accepted
 * @returns the message, or the error to answer
 */
export async function readJsonRpcBody(req: IncomingMessage, limitBytes: number): Promise<ReadMessage> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) return { ok: false, status: 413, code: -32000, message: `Payload too large: the body may be at most ${limitBytes} bytes.` };
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the body is not valid JSON.' };
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0 || !messages.every((m) => JSONRPCMessageSchema.safeParse(m).success)) {
    return { ok: false, status: 400, code: -32600, message: 'Invalid Request: the body is not a JSON-RPC 2.0 message.' };
  }
  return { ok: true, message: parsed };
}
