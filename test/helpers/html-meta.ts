const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

function decode(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) => ENTITIES[name]);
}

/**
 * The attributes of every tag of one name in an HTML document, entities decoded: a small tokenizer
 * of start tags (quoted, single-quoted or bare attribute values), enough to read meta tags the
 * way a link-preview crawler does.
 * @param html - the document
 * @param tag - tag name, e.g. `meta`
 * @returns one attribute map per tag, in document order
 */
export function tagAttributes(html: string, tag: string): Array<Record<string, string>> {
  const tags = html.match(new RegExp(`<${tag}\\b[^>]*>`, 'gi')) ?? [];
  return tags.map((t) => {
    const attrs: Record<string, string> = {};
    const attr = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
    for (const m of t.slice(tag.length + 1).matchAll(attr)) attrs[m[1].toLowerCase()] = decode(m[2] ?? m[3] ?? m[4] ?? '');
    return attrs;
  });
}

/**
 * The share meta tags of a page: `og:*` by `property`, `twitter:*` and others by `name`.
 * @param html - the document
 * @returns content by key (the first of each key)
 */
export function shareMeta(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const attrs of tagAttributes(html, 'meta')) {
    const key = attrs.property ?? attrs.name;
    if (key && attrs.content !== undefined && !(key in out)) out[key] = attrs.content;
  }
  return out;
}
