import { expect } from 'chai';
import { canonicalPath, isPathUnder } from '../../../../api/http/path-prefix';

describe('isPathUnder', function () {
  it('takes the prefix itself and what lies under it, not a longer name that starts the same', function () {
    expect(isPathUnder('/admin', '/admin')).to.equal(true);
    expect(isPathUnder('/admin/queues', '/admin')).to.equal(true);
    expect(isPathUnder('/admin/', '/admin')).to.equal(true);
    expect(isPathUnder('/administrator', '/admin')).to.equal(false);
    expect(isPathUnder('/api/admin', '/admin')).to.equal(false);
    expect(isPathUnder('/', '/admin')).to.equal(false);
  });
});

describe('canonicalPath', function () {
  it('gives every spelling of a path one form', function () {
    for (const spelled of ['/api/admin/x', '/API/Admin/X', '/api/admin/x/', '//api//admin/x', '/%61pi/admin/x', '/%41PI/admin/%78']) {
      expect([spelled, canonicalPath(spelled)]).to.deep.equal([spelled, '/api/admin/x']);
    }
  });

  it('keeps the root and a malformed escape', function () {
    expect(canonicalPath('/')).to.equal('/');
    expect(canonicalPath('//')).to.equal('/');
    expect(canonicalPath('/a%zz/')).to.equal('/a%zz');
  });
});
