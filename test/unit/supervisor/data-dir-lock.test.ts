import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { lockDataDir } from '../../../supervisor/data-dir-lock';
import { StartupError } from '../../../supervisor/startup-error';

describe('supervisor/data-dir-lock lockDataDir', function () {
  let dir: string;
  let holder: ChildProcess | undefined;

  beforeEach(function () {
    dir = mkdtempSync(path.join(tmpdir(), 'humanlike-lock-'));
  });
  afterEach(function () {
    holder?.kill('SIGKILL');
    holder = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a free folder and releases it', function () {
    const release = lockDataDir(path.join(dir, 'data'));
    const file = path.join(dir, 'data', 'supervisor.pid');
    expect(readFileSync(file, 'utf8').trim()).to.equal(String(process.pid));
    release();
    expect(existsSync(file)).to.equal(false);
  });

  it('refuses a folder held by a running process, in one line that says what to do', function () {
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    writeFileSync(path.join(dir, 'supervisor.pid'), `${holder.pid}\n`);
    let err: unknown;
    try {
      lockDataDir(dir);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StartupError);
    expect((err as Error).message).to.contain(`pid ${holder.pid}`).and.contain('DATA_DIR').and.not.contain('\n');
  });

  it('takes over a lock left by a process that is gone', async function () {
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(path.join(dir, 'supervisor.pid'), `${gone.pid}\n`);
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'supervisor.pid'), 'utf8').trim()).to.equal(String(process.pid));
    release();
  });
});
