import path from 'node:path';
import { expect } from 'chai';
import { loadStarterKit, STARTER_KIT_FILES, starterKitDir } from '../../../../api/starter-kit/starter-kit-files';

describe('starter kit files', function () {
  it('are read from the source tree, whether the module runs from source or from dist/', function () {
    const repo = path.resolve('/srv/humanlike');
    expect(starterKitDir(path.join(repo, 'api', 'starter-kit'))).to.equal(path.join(repo, 'api', 'starter-kit', 'files'));
    expect(starterKitDir(path.join(repo, 'dist', 'api', 'starter-kit'))).to.equal(path.join(repo, 'api', 'starter-kit', 'files'));
  });

  it('loads every listed file at startup', function () {
    const kit = loadStarterKit();
    expect([...kit.keys()]).to.deep.equal(STARTER_KIT_FILES.map((f) => f.filename));
    for (const body of kit.values()) expect(body.length).to.be.greaterThan(100);
  });

  it('fails at startup when a listed file is missing', function () {
    expect(() => loadStarterKit(path.join(__dirname, 'no-such-folder'))).to.throw(/ENOENT/);
  });
});
