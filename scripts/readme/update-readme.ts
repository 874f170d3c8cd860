// Rewrites the README's generated examples from the current engine and presenters:
// `npm run readme:examples` after any change to what an example's answer shows.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { README_EXAMPLES } from './examples';
import { replaceBlocks } from './readme-blocks';

async function main(): Promise<void> {
  const file = path.resolve(__dirname, '../../README.md');
  const before = readFileSync(file, 'utf8');
  const rendered = new Map<string, string>();
  for (const example of README_EXAMPLES) rendered.set(example.id, await example.render());
  const after = replaceBlocks(before, rendered);
  if (after === before) {
    process.stdout.write(`README.md: ${rendered.size} examples, all current\n`);
    return;
  }
  writeFileSync(file, after);
  process.stdout.write(`README.md: ${rendered.size} examples regenerated\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`readme:examples: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
