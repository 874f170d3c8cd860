import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ValidationError } from '../../shared/errors';
import { SINGLE_TIER } from '../../shared/products';
import { compileBodySchema, toFieldProblems } from '../http/ajv';
import type { AgentCall, AgentTool } from '../http/agent-tool';
import type { AppDeps } from '../http/deps';
import { WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import type { PaidProduct } from '../payments/paid-product';
import { quoteOutcome } from '../payments/quote';
import { payTool, toolResource, type PaidToolCall } from './paid-tool';
import { errorResult, jsonResult, MCP_PAYMENT_META_KEY } from './tool-result';

/** One tool as the MCP endpoint lists and runs it. */
interface CatalogEntry {
  tool: Tool;
  validate: ReturnType<typeof compileBodySchema>;
  refine?: AgentTool['refine'];
  run(args: unknown, call: PaidToolCall): Promise<CallToolResult>;
}

/** The tools of the MCP endpoint, built once per process from the paid products and the free tools. */
export interface ToolCatalog {
  /** Every tool, in listing order: the free tools, the quote tool, then one per paid product. */
  readonly tools: readonly Tool[];
  /**
   * Runs a tool call: arguments validated with the schema that validates the HTTP request; a
   * failure (validation, refusal, server fault) is an `isError` result, never a JSON-RPC error.
   * @param name - the tool
   * @param args - its arguments
   * @param call - the caller, with the call's `_meta`
   * @returns the result, or undefined for an unknown tool
   */
  call(name: string, args: unknown, call: PaidToolCall): Promise<CallToolResult> | undefined;
}

function paidDescription(paid: PaidProduct): string {
  const { product } = paid;
  const tiers = Object.entries(product.tiers).map(([id, t]) =>
    id === SINGLE_TIER ? `${t.description} Price: ${t.price.usdcUnits} USDC units (6 decimals).` : `${id}: ${t.description} Price: ${t.price.usdcUnits} USDC units.`,
  );
  return (
    `Paid (x402), the same as POST ${product.path}. ${tiers.join(' ')} ` +
    `Call it without payment to get the PaymentRequired object (isError, structuredContent); sign its first accepts entry ` +
    `(EIP-3009) and call again with the same arguments and the PaymentPayload in _meta["${MCP_PAYMENT_META_KEY}"].`
  );
}

// The quote tool: the live quote of any paid tool, never a charge.
function quoteTool(deps: AppDeps, paid: readonly PaidProduct[]): CatalogEntry {
  const byName = new Map(paid.map((p) => [p.product.id, p]));
  const inputSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['tool'],
    properties: {
      tool: { type: 'string', enum: [...byName.keys()], description: 'The paid tool to quote.' },
      tier: { type: 'string', description: 'The tier (simulate: basic or deep; bundle: bundle or fleet). Default: the product\'s default tier.' },
      wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: 'Quote for this wallet (a loyalty discount applies when it qualifies).' },
    },
  } as const;
  return {
    tool: {
      name: 'quote',
      title: 'Quote a paid tool',
      description: 'The live x402 quote (PaymentRequired object) of a paid tool for the given tier and wallet. Never charges.',
      inputSchema: inputSchema as unknown as Tool['inputSchema'],
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    validate: compileBodySchema(inputSchema),
    async run(args) {
      const { tool, tier, wallet_address } = args as { tool: string; tier?: string; wallet_address?: string };
      const product = byName.get(tool)!;
      if (tier !== undefined && !(tier in product.product.tiers)) {
        throw new ValidationError([{ path: '/tier', rule: 'enum', message: `must be one of ${Object.keys(product.product.tiers).join(', ')}` }]);
      }
      const quote = quoteOutcome(deps, await product.quote({ tier, wallet_address }), toolResource(tool));
      return jsonResult(quote.challenge.body);
    },
  };
}

function freeEntry(tool: AgentTool): CatalogEntry {
  return {
    tool: {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema as Tool['inputSchema'],
      annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
    },
    validate: compileBodySchema(tool.inputSchema),
    refine: tool.refine,
    run: async (args, call: AgentCall) => jsonResult(await tool.run(args, call)),
  };
}

function paidEntry(deps: AppDeps, paid: PaidProduct): CatalogEntry {
  const { product } = paid;
  return {
    tool: {
      name: product.id,
      title: `${product.id} (paid, ${product.path})`,
      description: paidDescription(paid),
      inputSchema: paid.requestSchema as Tool['inputSchema'],
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    validate: compileBodySchema(paid.requestSchema),
    refine: paid.refine,
    run: (args, call) => payTool(deps, paid, args, call),
  };
}

/**
 * Builds the tool catalog: the free tools the families define, the quote tool, and one tool per
 * paid product (named by its catalog id). Validators are compiled here, once per process.
 * @param deps - app dependencies
 * @param paid - every paid product a family sells
 * @param free - every free agent tool a family defines
 * @returns the catalog
 * @throws Error when two tools share a name (a wiring mistake)
 */
export function buildToolCatalog(deps: AppDeps, paid: readonly PaidProduct[], free: readonly AgentTool[]): ToolCatalog {
  const entries = [...free.map(freeEntry), quoteTool(deps, paid), ...paid.map((p) => paidEntry(deps, p))];
  const byName = new Map<string, CatalogEntry>();
  for (const entry of entries) {
    if (byName.has(entry.tool.name)) throw new Error(`two MCP tools are named ${entry.tool.name}`);
    byName.set(entry.tool.name, entry);
  }
  return {
    tools: entries.map((e) => e.tool),
    call(name, args, call) {
      const entry = byName.get(name);
      if (!entry) return undefined;
      return (async () => {
        try {
          const input = args ?? {};
          if (!entry.validate(input)) {
            const fields = toFieldProblems(entry.validate.errors);
            const refined = entry.refine?.(fields);
            throw new ValidationError(fields, refined?.message, refined?.code);
          }
          return await entry.run(input, call);
        } catch (err) {
          return errorResult(err, call.log, call.reqId);
        }
      })();
    },
  };
}
