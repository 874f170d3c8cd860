import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';
import { pricePhrase, type Endpoint } from './endpoint-catalog';
import { DOCUMENT_PATHS, MCP_PATH, OPENAPI_PATH, SERVICE_SUMMARY, linksOf, urlOf, type Site } from './site';

// One list item: a link when a bare GET answers 200, else the method and path as code.
function item(site: Site, e: Endpoint, note: string): string[] {
  const links = linksOf(site, e);
  const head = `${e.method} ${e.path}`;
  if (links.length === 1) return [`- [${head}](${links[0]}): ${note}`];
  const lines = [`- \`${head}\`: ${note}`];
  for (const link of links) lines.push(`  - [${link.slice(site.origin.length)}](${link})`);
  return lines;
}

function section(site: Site, title: string, endpoints: readonly Endpoint[], note: (e: Endpoint) => string): string[] {
  if (endpoints.length === 0) return [];
  return [`## ${title}`, '', ...endpoints.flatMap((e) => item(site, e, note(e))), ''];
}

/**
 * The llms.txt document (llmstxt.org: an H1, a summary blockquote, then sections of links): what
 * the service does, every endpoint of the OpenAPI document's list with the live prices of the paid
 * ones, how to pay, the MCP endpoint, and the other discovery documents.
 * @param site - origin, endpoints and config
 * @returns the text
 */
export function buildLlmsTxt(site: Site): string {
  const { endpoints, config } = site;
  const of = (...kinds: Endpoint['kind'][]) => endpoints.filter((e) => kinds.includes(e.kind));
  const free = config.freeTier;
  const u = (path: string) => urlOf(site, path);
  const lines = [
    '# humanlike',
    '',
    `> ${SERVICE_SUMMARY}`,
    '',
    `Free tier: ${free.scoreLimit} lifetime free scores per caller (POST /api/score, data_consent must be true; one wishlist item ` +
      `before free score number ${free.wishlistRequiredFrom}). Paid products answer HTTP 402 with x402 payment requirements first; ` +
      'prices below are the live base quotes (the 402 quote is authoritative). Errors are JSON {"error": {"code", "message", "details"}}; ' +
      'validation errors are 422 and are checked before any payment.',
    '',
    ...section(site, 'Paid endpoints (x402)', of('paid'), (e) => `${e.summary} Price: ${pricePhrase(e.prices ?? [])}.`),
    ...section(site, 'Payment quotes', of('quote'), (e) => `${e.summary} The 402 body and PAYMENT-REQUIRED header carry the requirements.`),
    ...section(site, 'Free endpoints', of('free'), (e) => e.summary),
    '## How to pay',
    '',
    `- Send the request with no payment header: the answer is 402 with \`accepts[]\` in the body and the x402 v2 object in the PAYMENT-REQUIRED header (USDC on ${config.payments.network}, scheme exact).`,
    '- Sign the first `accepts` entry as an EIP-3009 TransferWithAuthorization (the wallet needs USDC, no gas) and retry the same request once with `PAYMENT-SIGNATURE` (base64 of the x402 v2 PaymentPayload). `wallet_address` in the body must be the signer.',
    '- The answer carries the settlement receipt in PAYMENT-RESPONSE. Settlement happens only after a successful result; a lost answer is replayed by retrying the same request with the same authorization, never charged twice.',
    `- Prepaid: POST ${PRODUCTS.bundle.path} buys ${PRODUCT_TERMS.bundleCredits} basic credits (${PRODUCT_TERMS.bundleDiscountPct} percent off list); send \`X-BUNDLE-TOKEN\` instead of a payment for basic /api/simulate sessions.`,
    '- Legacy: x402 v1 `X-PAYMENT` on the SOL rail (lamports) is still accepted.',
    `- [Pricing manifest](${u('/api/pricing')}): every product, tier and term.`,
    '',
    '## MCP',
    '',
    `- \`POST ${MCP_PATH}\` (${u(MCP_PATH)}): stateless MCP Streamable HTTP endpoint (JSON-RPC 2.0, JSON responses, no SSE; GET answers 405). Free tools and every paid product as a tool; paid tools take x402 in \`_meta["x402/payment"]\`.`,
    `- [MCP server card](${u(DOCUMENT_PATHS.mcpServerCard)})`,
    '',
    '## Discovery documents',
    '',
    `- [OpenAPI 3.1 document](${u(OPENAPI_PATH)}): every endpoint with its request and response schemas`,
    `- [A2A agent card](${u(DOCUMENT_PATHS.agentCard)}): skills and the x402 extension`,
    `- [AI catalog](${u(DOCUMENT_PATHS.aiCatalog)}): the MCP server card and the agent card`,
    `- [Developer handoff](${u(DOCUMENT_PATHS.developerHandoff)}): base URL, payment facts, starter kit`,
    `- [agents.json](${u(DOCUMENT_PATHS.agentsJson)}), [ai-plugin.json](${u(DOCUMENT_PATHS.aiPlugin)})`,
    '',
    ...section(site, 'Discovery endpoints', of('discovery'), (e) => e.summary),
    ...section(site, 'Optional', of('operator', 'retired'), (e) => (e.kind === 'operator' ? `${e.summary} Needs an operator or admin credential.` : e.summary)),
  ];
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
