import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One file of the starter kit. */
export interface StarterKitFile {
  filename: string;
  /** Media type it is served with. */
  type: string;
  description: string;
}

/**
 * The starter kit's files, in index order. Only these names are served: the filename of a request
 * is looked up here, never joined to a path, so no traversal can reach another file.
 */
export const STARTER_KIT_FILES: readonly StarterKitFile[] = Object.freeze([
  {
    filename: 'humanlike-client.mjs',
    type: 'text/javascript; charset=utf-8',
    description: 'Node client that pays for a session with @x402/fetch (wrapFetchWithPayment, a viem account from HUMANLIKE_PRIVATE_KEY).',
  },
  {
    filename: 'humanlike_client.py',
    type: 'text/x-python; charset=utf-8',
    description: 'Python client that signs the EIP-3009 authorization with eth-account and retries with PAYMENT-SIGNATURE.',
  },
  {
    filename: 'mcp-client-config.json',
    type: 'application/json',
    description: 'MCP client configuration (mcpServers) for the streamable-HTTP endpoint /api/mcp.',
  },
  {
    filename: 'curl-examples.sh',
    type: 'text/x-shellscript; charset=utf-8',
    description: 'curl examples: health, profiles, pricing, a free score, a wishlist item, the 402 quote, MCP tools/list.',
  },
]);

/**
 * The folder the files live in: beside this module in the source tree (they are not compiled, so
 * the compiled module in dist/ reads them from the source tree too).
 * @param moduleDir - this module's directory
 * @returns the folder
 */
export function starterKitDir(moduleDir: string = __dirname): string {
  const compiled = path.basename(path.resolve(moduleDir, '..', '..')) === 'dist';
  return compiled ? path.resolve(moduleDir, '..', '..', '..', 'api', 'starter-kit', 'files') : path.join(moduleDir, 'files');
}

/**
 * Reads every file of the kit once, at startup (a missing file is a startup error, not a 500 later).
 * @param dir - the kit's folder
 * @returns the contents by filename
 */
export function loadStarterKit(dir: string = starterKitDir()): ReadonlyMap<string, string> {
  return new Map(STARTER_KIT_FILES.map((f) => [f.filename, readFileSync(path.join(dir, f.filename), 'utf8')]));
}
