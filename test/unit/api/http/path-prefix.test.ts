import { expect } from 'chai';
import { isPathUnder } from '../../../../api/http/path-prefix';

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
