import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { agentCallOf, type AgentTool } from '../http/agent-tool';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { PaidProduct } from '../payments/paid-product';
import { invalidCallParams } from './call-params';
import { createMcpServer } from './mcp-server';
import { mcpOriginCheck } from './origin-check';
import { readJsonRpcBody } from './read-message';
import { buildToolCatalog } from './tool-catalog';

/** The MCP endpoint's path. Its body is read by the MCP transport, not by the app's JSON parser. */
export const MCP_PATH = '/api/mcp';

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

// The Koa request's head as a web-standard Request; its body is handed to the transport parsed.
function toWebRequest(ctx: AppContext): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://${ctx.host || 'localhost'}${ctx.url}`, { method: ctx.method, headers });
}

/**
 * The MCP endpoint: stateless Streamable HTTP in JSON response mode. Each POST gets a new server
 * and transport (the SDK's web-standard one), whose Response is copied onto the Koa context, so
 * the app's request ids, logging, metrics and error handling apply as on any route. GET (the SSE
 * stream) and DELETE (session end) are not offered: 405 with `Allow: POST`. A browser Origin
 * that is not allowed is refused with 403 before anything is read (DNS-rebinding protection).
 * @param deps - app dependencies
 * @param tools - the paid products and free tools the families define
 * @returns the router
 */
export function mcpRoutes(deps: AppDeps, tools: { paid: readonly PaidProduct[]; free: readonly AgentTool[] }): Router<AppState> {
  const router = createRouter();
  const catalog = buildToolCatalog(deps, tools.paid, tools.free);
  const originAllowed = mcpOriginCheck(deps.config);

  router.post(MCP_PATH, async (ctx: AppContext) => {
    if (!originAllowed(ctx.get('origin'))) {
      ctx.status = 403;
      ctx.body = jsonRpcError(-32000, 'Forbidden: this Origin may not call the MCP endpoint.');
      return;
    }
    // Another Content-Type is the transport's 415, answered before it would read the body.
    const read = ctx.is('application/json') ? await readJsonRpcBody(ctx.req, deps.config.http.bodyLimitBytes) : { ok: true as const, message: undefined };
    if (!read.ok) {
      ctx.status = read.status;
      ctx.body = jsonRpcError(read.code, read.message);
      return;
    }
    const malformed = invalidCallParams(read.message);
    if (malformed) {
      ctx.status = 200;
      ctx.body = malformed;
      return;
    }
    const server = createMcpServer(catalog, { ...agentCallOf(ctx, deps), header: (name) => ctx.get(name) });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(toWebRequest(ctx), { parsedBody: read.message });
      const text = await response.text();
      ctx.status = response.status;
      response.headers.forEach((value, name) => ctx.set(name, value));
      if (text !== '') ctx.body = text;
    } finally {
      await transport.close();
      await server.close();
    }
  });

  const notAllowed = async (ctx: AppContext) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = jsonRpcError(-32000, 'Method not allowed: this MCP endpoint offers no SSE stream and no sessions; POST JSON-RPC requests.');
  };
  router.get(MCP_PATH, notAllowed);
  router.delete(MCP_PATH, notAllowed);

  return router;
}
