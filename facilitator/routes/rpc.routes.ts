import Router from '@koa/router';
import type { Next } from 'koa';
import { AppError } from '../../shared/errors';
import type { FacilitatorContext, FacilitatorState } from '../context';
import type { EdrChainProvider } from '../edr-provider';
import { jsonBody } from '../middleware/json-body';

const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;

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
 * batches), so tests and the CLI can read balances and send transactions with any Ethereum
 * client. Served only on the development chain; JSON-RPC errors (a revert, an unknown method) are
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
