import { PRODUCTS, SINGLE_TIER, type Price, type Product } from '../products';

/**
 * What a developer must do to use an offering: paste an HTML snippet into their own page
 * (`snippet`), add a server to an MCP client's configuration (`mcp_config`), call an HTTP endpoint
 * (`http_api`), or nothing at all (`none`: downloadable files to read).
 */
export type InstallKind = 'snippet' | 'mcp_config' | 'http_api' | 'none';

/** What an offering is: one of the service's paid products, its MCP endpoint, its starter kit, its embedded check, or a partner's listing. */
export type OfferingKind = 'paid_product' | 'mcp' | 'starter_kit' | 'embed_component' | 'partner';

/** One thing the catalog can recommend. */
export interface Offering {
  /** Stable kebab-case id (a paid product's id is its product id). */
  readonly id: string;
  readonly name: string;
  readonly kind: OfferingKind;
  readonly install_kind: InstallKind;
  /** One sentence: what it does for the developer. */
  readonly summary: string;
  /** Where a developer starts: a path of this service (relative) or, for a partner, its https address. */
  readonly url: string;
  /** The published base quote of a paid product's default tier (the live 402 quote is authoritative). */
  readonly price?: { readonly usdc_units: number; readonly lamports: number };
  /** How this service's offering is paid: x402 per call, a prepaid bundle credit, or free (a partner's is the partner's business: absent). */
  readonly payment?: 'x402' | 'bundle-credit' | 'free';
}

const priceOf = (p: Product): Price => (p.tiers[p.defaultTier] ?? p.tiers[SINGLE_TIER]).price;

// One sentence per paid product, in the words a developer searching for it would use.
const PAID_SUMMARIES: Readonly<Record<string, string>> = {
  simulate: 'Score one agent reply against a human personality profile, with a suggested prompt addition (deep tier: diagnostics and rewrite guidance).',
  duel: 'Pit two bots against the same prompt and profile; the higher EQ score wins.',
  progress: "A wallet's score history: trend, streak, percentile and style drift.",
  'stress-test': 'Score one reply against all 28 personality profiles at once.',
  'training-dataset': "Export the wallet's scored sessions as a training dataset.",
  rewrite: 'Rewrite a machine-sounding reply so it reads as written by a person.',
  'script-check': 'Check that a reply keeps to a script: claims, numbers and required points.',
  roleplay: 'A two-chair role-play room of eight turns between two agents, scored per turn.',
  coaching: 'A coaching pack of drills toward a certificate for one profile.',
  bundle: 'Prepaid basic-score credits under one token (also what the embedded check spends).',
};

const paidOffering = (p: Product): Offering => {
  const price = priceOf(p);
  return Object.freeze({
    id: p.id,
    name: p.label,
    kind: 'paid_product' as const,
    install_kind: 'http_api' as const,
    summary: PAID_SUMMARIES[p.id] ?? p.tiers[p.defaultTier].description,
    url: p.path,
    price: Object.freeze({ usdc_units: price.usdcUnits, lamports: price.lamports }),
    payment: 'x402' as const,
  });
};

/**
 * Everything the catalog recommends of this service, in a fixed order: the paid products in
 * manifest order (from the product catalog, so a path or price is never restated here), then the
 * MCP endpoint, the starter kit and the embedded check component. Partners' offerings are not here:
 * operators add them at run time and they live in PostgreSQL.
 */
export const OFFERINGS: readonly Offering[] = Object.freeze([
  ...Object.values(PRODUCTS).map(paidOffering),
  Object.freeze<Offering>({
    id: 'mcp',
    name: 'MCP endpoint',
    kind: 'mcp',
    install_kind: 'mcp_config',
    summary: "Give an agent the scoring tools over the Model Context Protocol (Streamable HTTP); paid tools take the same x402 payments.",
    url: '/api/mcp',
    payment: 'x402',
  }),
  Object.freeze<Offering>({
    id: 'starter-kit',
    name: 'Starter kit',
    kind: 'starter_kit',
    install_kind: 'none',
    summary: 'Example clients that make a free score and a paid x402 call, to copy into your own code.',
    url: '/api/starter-kit',
    payment: 'free',
  }),
  Object.freeze<Offering>({
    id: 'embedded-check',
    name: 'Embedded check',
    kind: 'embed_component',
    install_kind: 'snippet',
    summary: 'The <humanlike-check> component on your own page: marks machine-like phrasing in a draft as it is typed, through your server.',
    url: '/api/embed/check',
    payment: 'bundle-credit',
  }),
]);

const BY_ID: ReadonlyMap<string, Offering> = new Map(OFFERINGS.map((o) => [o.id, o]));

/**
 * One of the service's own offerings by id.
 * @param id - offering id
 * @returns the offering, or undefined (partners' offerings are looked up in PostgreSQL)
 */
export function offeringById(id: string): Offering | undefined {
  return BY_ID.get(id);
}
