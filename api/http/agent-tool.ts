import type { FieldProblem } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { AppContext } from './context';
import type { AppDeps } from './deps';
import { requestOrigin } from './public-origin';

/** The caller of a free agent tool: the same identity the HTTP route would see. */
export interface AgentCall {
  reqId: string;
  log: Logger;
  /** The client address (the free tier's caller identity, as on HTTP). */
  ip: string;
  /** Canary traffic (an operator credential on the carrying request; `api/http/canary.ts`). */
  canary: boolean;
  /** The absolute public URL of a path of this service (links a result shows, as on HTTP). */
  publicUrl(path: string): string;
}

/**
 * A free capability an agent may call as a tool (MCP), defined by the family that serves it over
 * HTTP, so both run the same code with the same rules (consent, caps, caching, privacy).
 */
export interface AgentTool {
  /** Tool name, kebab-case. */
  name: string;
  title: string;
  description: string;
  /** JSON schema (type object) of the arguments; the HTTP body or query schema where there is one. */
  inputSchema: object;
  /** A more specific code and message for some failing fields (as `validateBody` takes). */
  refine?: (fields: FieldProblem[]) => { code: string; message: string } | undefined;
  /** Only reads (no round used, nothing stored). */
  readOnly: boolean;
  /**
   * Runs the tool on valid arguments.
   * @param args - valid against `inputSchema`
   * @param call - the caller
   * @returns the structured result (the HTTP response body)
   * @throws AppError as the HTTP route would
   */
  run(args: unknown, call: AgentCall): Promise<Record<string, unknown>>;
}

/**
 * The caller of an HTTP request (a route that runs a tool's code, or the MCP POST carrying calls).
 * @param ctx - Koa context
 * @param deps - app dependencies (the configured public origin)
 * @returns the call
 */
export function agentCallOf(ctx: AppContext, deps: Pick<AppDeps, 'config'>): AgentCall {
  return {
    reqId: ctx.state.reqId,
    log: ctx.state.log,
    ip: ctx.ip,
    canary: ctx.state.canary === true,
    // The configured public origin, else the request's own (never its Origin header).
    publicUrl: (path) => `${requestOrigin(deps.config.payments, ctx)}${path}`,
  };
}
