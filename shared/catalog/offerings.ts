/** One thing the catalog can point a developer at, and how it is installed. */
export interface Offering {
  id: string;
  name: string;
  kind: 'paid_product' | 'mcp' | 'starter_kit' | 'embed_component' | 'partner';
  install_kind: 'snippet' | 'mcp_config' | 'http_api' | 'none';
  summary: string;
}

/** The offerings the catalog recommends. */
export const OFFERINGS: readonly Offering[] = Object.freeze([
  {
    id: 'embedded-check',
    name: 'Embedded human-likeness check',
    kind: 'embed_component',
    install_kind: 'snippet',
    summary: 'The <humanlike-check> browser component on your own page, checking drafts as they are typed through your host server.',
  },
]);

/**
 * An offering by id.
 * @param id - offering id
 * @returns the offering, or undefined
 */
export function offeringById(id: string): Offering | undefined {
  return OFFERINGS.find((o) => o.id === id);
}
