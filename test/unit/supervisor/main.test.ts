import path from 'node:path';
import { expect } from 'chai';
import { findRootDir, readyLine } from '../../../supervisor/main';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('supervisor/main', function () {
  it('finds the repository folder from the sources and from dist', function () {
    expect(findRootDir(path.join(ROOT, 'supervisor'))).to.equal(ROOT);
    expect(findRootDir(path.join(ROOT, 'dist', 'supervisor'))).to.equal(ROOT);
  });

  it('prints one ready line with the URL and what the stack runs on', function () {
    const embedded = readyLine({ url: 'http://localhost:3000', database: 'embedded', redis: 'local', redisUrl: 'redis://127.0.0.1:6379' }, '/repo/.data');
    expect(embedded).to.equal(
      'humanlike is running at http://localhost:3000 (embedded PostgreSQL in /repo/.data/pglite; Redis at redis://127.0.0.1:6379). Press Ctrl-C to stop.',
    );
    const configured = readyLine({ url: 'http://localhost:8080', database: 'configured', redis: 'configured', redisUrl: 'redis://:***@r:6379' }, '/repo/.data');
    expect(configured).to.contain('PostgreSQL from DATABASE_URL; Redis from REDIS_URL').and.not.contain('***');
    expect(readyLine({ url: 'http://localhost:3000', database: 'embedded', redis: 'private', redisUrl: 'redis://127.0.0.1:41234' }, '/d')).to.contain(
      'private Redis at redis://127.0.0.1:41234',
    );
  });
});
