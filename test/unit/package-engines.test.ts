import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '..', '..');
// semver is npm's own range logic; read through require so the test adds no dependency of its own.
const semver = createRequire(path.join(ROOT, 'package.json'))('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

describe('package-lock.json', function () {
  it('holds no package whose engines refuse the oldest Node that package.json names (npm install warns EBADENGINE)', function () {
    const manifest = createRequire(__filename)(path.join(ROOT, 'package.json')) as { engines: { node: string } };
    const lock = createRequire(__filename)(path.join(ROOT, 'package-lock.json')) as { packages: Record<string, { version?: string; engines?: unknown }> };
    const oldest = semver.minVersion(manifest.engines.node)!.version;
    const refusing = Object.entries(lock.packages)
      .map(([where, entry]) => ({ where, version: entry.version, node: (entry.engines as { node?: unknown } | undefined)?.node }))
      .filter((p): p is { where: string; version: string | undefined; node: string } => typeof p.node === 'string' && !semver.satisfies(oldest, p.node))
      .map((p) => `${p.where}@${p.version} wants node ${p.node}`);
    expect(Object.keys(lock.packages).length).to.be.greaterThan(100);
    expect(refusing, `Node ${oldest}`).to.deep.equal([]);
  });
});
