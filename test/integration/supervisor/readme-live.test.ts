import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runLiveExamples } from '../../../scripts/readme/run-live-examples';
import { obliterateQueues } from '../../helpers/redis';
import { startNpmStart, type RunningStack } from './npm-start';

/**
 * What a newcomer does after `npm install && npm start`: paste each command of the README (and of
 * the products page its paid examples link to), filling in only the key and test USDC the banner
 * printed. Each must answer what the document shows, through the real stack: embedded database,
 * chain and facilitator, web, worker and the `npx humanlike` command.
 */
describe('the README\'s commands against a fresh npm start (supervisor/main from dist)', function () {
  // A first start, then about a dozen commands, five of them paid through the embedded chain.
  this.timeout(300_000);
  let dataDir: string;
  let stack: RunningStack | undefined;

  before(function () {
    dataDir = mkdtempSync(path.join(tmpdir(), 'humanlike-readme-live-'));
  });
  after(async function () {
    stack?.killAll();
    if (stack?.queuePrefix?.startsWith('humanlike-')) await obliterateQueues(stack.queuePrefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every command as the documents show', async function () {
    stack = await startNpmStart({ DATA_DIR: dataDir, PORT: '0' }, 150_000);
    const outcomes = await runLiveExamples({ url: stack.url, privateKey: stack.privateKey, asset: stack.asset });
    expect(outcomes.length).to.be.at.least(8);
    const failures = outcomes.filter((o) => o.failure).map((o) => `${o.example.where}: ${o.failure}`);
    expect(failures).to.deep.equal([]);
  });
});
