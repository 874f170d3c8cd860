import type { FieldProblem } from '../../shared/errors';
import type { Logger } from '../../shared/logger';

/** The caller of a free agent tool: the same identity the HTTP route would see. */
export interface AgentCall {
  reqId: string;
  log: Logger;
  /** The client address (the free tier's caller identity, as on HTTP). */
  ip: string;
  /** Canary traffic (an operator credential on the carrying request; `api/http/canary.ts`). */
  canary: boolean;
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
