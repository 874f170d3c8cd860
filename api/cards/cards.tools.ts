import type { DataSource } from 'typeorm';
import { requireProcessor, type CardProcessor } from '../../shared/cards/stripe-client';
import type { AgentTool } from '../http/agent-tool';
import { checkoutRequestSchema, type CheckoutRequest } from './cards.schema';
import { startCheckout } from './checkout.service';
import { presentPacks } from './present-packs';

const NO_ARGS = { type: 'object', additionalProperties: false, properties: {} } as const;

/**
 * Card packs as agent tools: the pack quotes, and a checkout that returns the hosted checkout URL
 * for a person to open and pay (a card payment is made by a person on the processor's page; the
 * tool never pays). The new bundle's token is in that one result only, as over HTTP.
 * @param deps - the database
 * @param stripe - the processor client (undefined when card payments are off)
 * @returns the tools
 */
export function cardTools(deps: { dataSource: DataSource }, stripe: CardProcessor): AgentTool[] {
  return [
    {
      name: 'card-packs',
      title: 'Card credit packs',
      description: 'The card credit packs (basic-score credits on a bundle token, bought with a card) with their live quotes and one-time or monthly terms. Same as GET /api/card/packs.',
      inputSchema: NO_ARGS,
      readOnly: true,
      run: async () => presentPacks(stripe !== undefined),
    },
    {
      name: 'card-checkout',
      title: 'Card checkout link',
      description:
        'Starts a hosted card checkout for a pack and returns checkout_url for a person to open and pay, with the new bundle\'s secret bundle_token (shown once; credits arrive after the payment settles). Nothing is charged by this tool. Same as POST /api/card/checkout without a top-up token.',
      inputSchema: checkoutRequestSchema,
      readOnly: false,
      async run(args, call) {
        const body = args as CheckoutRequest;
        return startCheckout(deps.dataSource, requireProcessor(stripe), { pack: body.pack, autoRefill: body.auto_refill ?? false, origin: call.publicUrl('') }, call.log);
      },
    },
  ];
}
