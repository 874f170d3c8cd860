import type { DataSource } from 'typeorm';
import { ValidationError } from '../../../shared/errors';
import type { AgentTool } from '../../http/agent-tool';
import { compileBodySchema, toFieldProblems } from '../../http/ajv';
import { quotePlan } from './plan-quote';
import { newQuoteSchema, planQuoteToolSchema, renewalQuoteSchema, upgradeQuoteSchema, type QuoteRequest } from './plans.schema';
import { presentAgentCatalog, presentQuote } from './present-plans';
import type { QuoteKind } from './quote-store';

const NO_ARGS = { type: 'object', additionalProperties: false, properties: {} } as const;

// Each kind's body is checked by the schema its HTTP path checks it with, so a field a path refuses the tool refuses too.
const BODY_OF: Record<QuoteKind, ReturnType<typeof compileBodySchema>> = {
  new: compileBodySchema(newQuoteSchema),
  renewal: compileBodySchema(renewalQuoteSchema),
  upgrade: compileBodySchema(upgradeQuoteSchema),
};

/**
 * The catalog's agent plans as agent tools: the plans, and a quote for a verified install. Paying
 * a quote is an HTTP call (`POST /api/catalog/agent/payments/{quote_id}`, x402), named in the quote;
 * the tools never charge.
 * @param deps - the database
 * @returns the tools
 */
export function planTools(deps: { dataSource: DataSource }): AgentTool[] {
  return [
    {
      name: 'catalog-plans',
      title: 'Embedded-check plans for a verified install',
      description: 'The plans an agent can buy for a verified install of the embedded check: credits, period, price, and how to quote and pay. Same as GET /api/catalog/agent/catalog.',
      inputSchema: NO_ARGS,
      readOnly: true,
      run: async () => presentAgentCatalog(),
    },
    {
      name: 'catalog-plan-quote',
      title: 'Quote a plan for a verified install',
      description:
        'Quotes a new plan, a renewal or an upgrade for a verified install (the same as POST /api/catalog/agent/quotes, /renewals or /upgrades) and returns the quote with its expiry and payment path. Pay it over HTTP with x402 at that path; this tool never charges.',
      inputSchema: planQuoteToolSchema,
      readOnly: false,
      async run(args) {
        const { kind, ...body } = args as QuoteRequest & { kind: QuoteKind };
        const validate = BODY_OF[kind];
        if (!validate(body)) throw new ValidationError(toFieldProblems(validate.errors));
        return presentQuote(await quotePlan(deps.dataSource, kind, body));
      },
    },
  ];
}
