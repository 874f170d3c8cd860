// Rewrites the generated examples of the README and the docs from the current engine and
// presenters: `npm run readme:examples` after any change to what an example's answer shows.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLE_FILES, README_EXAMPLES } from './examples';
import { readBlocks, replaceBlocks } from './readme-blocks';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../..');
  const rendered = new Map<string, string>();
  for (const example of README_EXAMPLES) rendered.set(example.id, await example.render());
  const placed = new Set<string>();
  for (const name of EXAMPLE_FILES) {
    const file = path.join(root, name);
    const before = readFileSync(file, 'utf8');
    // Each file holds some of the examples; each example stands in exactly one file.
    const ids = readBlocks(before).map((b) => b.id);
    for (const id of ids) {
      if (placed.has(id)) throw new Error(`example ${id} stands in more than one file`);
      placed.add(id);
    }
    const after = replaceBlocks(before, new Map(ids.filter((id) => rendered.has(id)).map((id) => [id, rendered.get(id)!])));
    if (after !== before) writeFileSync(file, after);
    process.stdout.write(`${name}: ${ids.length} examples${after === before ? ', all current' : ' regenerated'}\n`);
  }
  const missing = [...rendered.keys()].filter((id) => !placed.has(id));
  if (missing.length > 0) throw new Error(`no block for ${missing.join(', ')} in ${EXAMPLE_FILES.join(' or ')}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`readme:examples: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
