import type { IncomingMessage } from 'node:http';

/** The largest component request body read (a draft of 20,000 characters fits well). */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Reads a JSON request body from the plain Node stream (when no body parser ran before).
 * @param req - the request
 * @returns the parsed body, or undefined when it is too large or not JSON
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
