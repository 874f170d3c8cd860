import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../../api/app';
import { EXAMPLE_FILES, README_EXAMPLES } from '../../../../scripts/readme/examples';
import { readBlocks, replaceBlocks } from '../../../../scripts/readme/readme-blocks';
import { fakeDeps } from '../../../helpers/fake-deps';

const ROOT = path.resolve(__dirname, '../../../..');
const README = path.join(ROOT, 'README.md');

describe('README examples', function () {
  // The examples run the engine on a handful of replies (the language detector loads once).
  this.timeout(60_000);
  const readme = readFileSync(README, 'utf8');

  it('shows, between its markers in the README and the docs, exactly what the current engine and presenters answer for each example', async function () {
    const blocks = EXAMPLE_FILES.flatMap((name) => readBlocks(readFileSync(path.join(ROOT, name), 'utf8')));
    expect(blocks.map((b) => b.id).sort()).to.deep.equal(README_EXAMPLES.map((e) => e.id).sort());
    expect(readBlocks(readme).length, 'the README keeps examples of its own').to.be.at.least(3);
    for (const example of README_EXAMPLES) {
      const shown = blocks.find((b) => b.id === example.id)!.content;
      const current = (await example.render()).replace(/\n+$/, '');
      expect(shown, `README example "${example.id}" is stale: run npm run readme:examples`).to.equal(current);
    }
  });

  it('shows real figures: the free score example carries the engine version and an EQ score', function () {
    const block = readBlocks(readme).find((b) => b.id === 'free-score')!.content;
    expect(block).to.match(/"scorer_version": "\d+\.\d+\.\d+\+[0-9a-f]+"/);
    expect(block).to.match(/"eq_score": \d+/);
  });

  it('lists in its MCP table exactly the tools the server lists', async function () {
    const app = createApp(fakeDeps({ TREASURY_EVM_ADDRESS: `0x${'b'.repeat(40)}` })).callback();
    const res = await supertest(app)
      .post('/api/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(res.status).to.equal(200);
    const live = (res.body.result.tools as Array<{ name: string }>).map((t) => t.name).sort();
    expect(live).to.include.members(['coaching', 'coaching-packs', 'simulate', 'score']);

    const section = readme.slice(readme.indexOf('Its tools:'), readme.indexOf('\n## ', readme.indexOf('Its tools:')));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows.length).to.be.greaterThan(0);
    const documented = rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([a-z-]+)`/g)].map((m) => m[1])).sort();
    expect(documented).to.deep.equal(live);
  });
});

describe('readBlocks and replaceBlocks', function () {
  const doc = 'intro\n<!-- example:a -->\nold a\n<!-- /example:a -->\nmiddle\n<!-- example:b -->\nold b\n<!-- /example:b -->\n';

  it('replaces the content between each pair of markers and leaves the rest', function () {
    const out = replaceBlocks(doc, new Map([['a', 'new a\n'], ['b', 'new b']]));
    expect(out).to.equal('intro\n<!-- example:a -->\nnew a\n<!-- /example:a -->\nmiddle\n<!-- example:b -->\nnew b\n<!-- /example:b -->\n');
    expect(readBlocks(out).map((b) => b.content)).to.deep.equal(['new a', 'new b']);
  });

  it('refuses when a block has no example or an example no block', function () {
    expect(() => replaceBlocks(doc, new Map([['a', 'x']]))).to.throw(/no example named b/);
    expect(() => replaceBlocks(doc, new Map([['a', 'x'], ['b', 'y'], ['c', 'z']]))).to.throw(/no block for c/);
  });

  it('refuses an opening marker without its closing one', function () {
    expect(() => readBlocks('<!-- example:a -->\ntext\n')).to.throw(/without their closing marker: a/);
  });
});
