import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { SCORER_VERSION } from '../../../../shared/scoring';

const ROOT = path.resolve(__dirname, '../../../..');
const COMPILED = path.join(ROOT, 'dist/shared/scoring/version.js');

describe('scorer_version', function () {
  it('is the same for the compiled engine (dist, as the Procfile runs it) as for the sources (tsx)', function () {
    expect(existsSync(COMPILED), 'dist/ is built by npm install (the prepare script)').to.equal(true);
    const run = spawnSync(process.execPath, ['-e', `process.stdout.write(require(${JSON.stringify(COMPILED)}).SCORER_VERSION)`], { encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.equal(SCORER_VERSION);
  });
});
