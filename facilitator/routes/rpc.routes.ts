import Router from '@koa/router';
import type { Next } from 'koa';
import { AppError } from '../../shared/errors';
import type { FacilitatorContext, FacilitatorState } from '../context';
import type { EdrChainProvider } from '../edr-provider';
import { jsonBody } from '../middleware/json-body';

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;

// What any Ethereum node serves to the public: reads and raw (client-signed) transactions. The
// development chain also holds the keys of its accounts, the facilitator's among them, and has
// test-control methods (hardhat_*, evm_*); neither is served here, so nobody on this machine can
// spend from the facilitator's account or rewrite balances and code behind the service's back.
const NODE_SIGNING_METHODS = new Set(['eth_sendTransaction', 'eth_sign', 'eth_signTransaction', 'eth_signTypedData', 'eth_signTypedData_v3', 'eth_signTypedData_v4']);

/**
 * Whether `/rpc` serves a JSON-RPC method.
 * @param method - the method name
 * @returns true for public eth_, net_ and web3_ methods, except those the node would sign for
 */
export function servesRpcMethod(method: string): boolean {
  return /^(eth|net|web3)_[A-Za-z0-9_]+$/.test(method) && !NODE_SIGNING_METHODS.has(method);
}

type JsonRpcId = string | number | null;

interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function idOf(request: unknown): JsonRpcId {
  const id = (request as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

async function answer(chain: EdrChainProvider, request: unknown): Promise<JsonRpcResponse> {
  const id = idOf(request);
  const method = (request as { method?: unknown } | null)?.method;
  if (typeof request !== 'object' || request === null || Array.isArray(request) || typeof method !== 'string') {
    return { jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message: 'Invalid Request: a JSON-RPC 2.0 object with a string "method" is expected.' } };
  }
  if (!servesRpcMethod(method)) {
    return {
      jsonrpc: '2.0',
      id,
      error: { code: METHOD_NOT_FOUND, message: `Method ${method} is not served on /rpc: only public eth_, net_ and web3_ methods, and transactions signed by the client (eth_sendRawTransaction).` },
    };
  }
  try {
    const outcome = await chain.call(method, (request as { params?: unknown }).params ?? []);
    return { jsonrpc: '2.0', id, ...outcome };
  } catch (err) {
    return { jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: err instanceof Error ? err.message : 'internal error' } };
  }
}

// Body errors on /rpc answer in JSON-RPC's shape (numeric codes), which is what RPC clients parse.
async function jsonRpcErrors(ctx: FacilitatorContext, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    ctx.status = err.status;
    ctx.body = { jsonrpc: '2.0', id: null, error: { code: err.code === 'invalid_json' ? PARSE_ERROR : INVALID_REQUEST, message: err.message } };
  }
}

/**
 * `POST /rpc`: a JSON-RPC passthrough to the embedded development chain (single requests and
 * batches), so tests and the CLI can read balances and send client-signed transactions with any
 * Ethereum client ({@link servesRpcMethod} says which methods). Served only on the development chain; JSON-RPC errors (a revert, an unknown method) are
 * HTTP 200 as from any node, a malformed request is HTTP 400.
 * @param chain - the development chain
 * @param bodyLimitBytes - largest accepted body
 * @returns the router
 */
export function rpcRoutes(chain: EdrChainProvider, bodyLimitBytes: number): Router<FacilitatorState> {
  const router = new Router<FacilitatorState>();
  router.post('/rpc', jsonRpcErrors, jsonBody(bodyLimitBytes), async (ctx: FacilitatorContext) => {
    const body: unknown = ctx.request.body;
    if (Array.isArray(body)) {
      if (body.length === 0) throw new AppError(400, 'invalid_request', 'An empty JSON-RPC batch is not a request.');
      const responses: JsonRpcResponse[] = [];
      // One at a time, in order: a batch that sends a transaction and then reads its effect must see it.
      for (const request of body) responses.push(await answer(chain, request));
      ctx.body = responses;
      return;
    }
    const response = await answer(chain, body);
    if (response.error?.code === INVALID_REQUEST) ctx.status = 400;
    ctx.body = response;
  });
  return router;
}
