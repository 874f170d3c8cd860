/** One generated block of a Markdown file: the text between `<!-- example:ID -->` and `<!-- /example:ID -->`. */
export interface ReadmeBlock {
  id: string;
  /** The block's current content, without the marker lines. */
  content: string;
}

const BLOCK = /<!-- example:([a-z0-9-]+) -->\n([\s\S]*?)\n?<!-- \/example:\1 -->/g;

/**
 * The generated blocks of a document, in order.
 * @param doc - the Markdown text
 * @returns each block's id and content
 * @throws Error when an opening marker has no closing one, or an id appears twice
 */
export function readBlocks(doc: string): ReadmeBlock[] {
  const blocks = [...doc.matchAll(BLOCK)].map((m) => ({ id: m[1], content: m[2] }));
  const opened = [...doc.matchAll(/<!-- example:([a-z0-9-]+) -->/g)].map((m) => m[1]);
  const unclosed = opened.filter((id) => !blocks.some((b) => b.id === id));
  if (unclosed.length) throw new Error(`example markers without their closing marker: ${unclosed.join(', ')}`);
  const seen = new Set<string>();
  for (const b of blocks) {
    if (seen.has(b.id)) throw new Error(`example ${b.id} appears twice`);
    seen.add(b.id);
  }
  return blocks;
}

/**
 * Puts freshly rendered content between each block's markers. Every block of the document must
 * have its rendering and every rendering its block, so an example can be neither dropped from the
 * document nor left stale in it.
 * @param doc - the Markdown text
 * @param rendered - each block's new content, by id
 * @returns the document with every block replaced
 * @throws Error naming the blocks without a rendering and the renderings without a block
 */
export function replaceBlocks(doc: string, rendered: ReadonlyMap<string, string>): string {
  const ids = readBlocks(doc).map((b) => b.id);
  const missing = [...rendered.keys()].filter((id) => !ids.includes(id));
  const unknown = ids.filter((id) => !rendered.has(id));
  if (missing.length || unknown.length) {
    throw new Error(`README examples out of step: ${[...missing.map((id) => `no block for ${id}`), ...unknown.map((id) => `no example named ${id}`)].join('; ')}`);
  }
  return doc.replace(BLOCK, (_all, id: string) => `<!-- example:${id} -->\n${rendered.get(id)!.replace(/\n+$/, '')}\n<!-- /example:${id} -->`);
}
