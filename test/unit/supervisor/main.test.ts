import path from 'node:path';
import { expect } from 'chai';
import { cardLines, findRootDir, paymentLines, readyLine } from '../../../supervisor/main';

const configuredPayments = { facilitator: 'configured' } as const;
const configuredCards = { processor: 'configured' } as const;

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('supervisor/main', function () {
  it('finds the repository folder from the sources and from dist', function () {
    expect(findRootDir(path.join(ROOT, 'supervisor'))).to.equal(ROOT);
    expect(findRootDir(path.join(ROOT, 'dist', 'supervisor'))).to.equal(ROOT);
  });

  it('prints one ready line with the URL and what the stack runs on', function () {
    const embedded = readyLine({ url: 'http://localhost:3000', database: 'embedded', redis: 'local', redisUrl: 'redis://127.0.0.1:6379', queuePrefix: 'humanlike-0123abcd', payments: configuredPayments, cards: configuredCards }, '/repo/.data');
    expect(embedded).to.equal(
      'humanlike is running at http://localhost:3000 (embedded PostgreSQL in /repo/.data/pglite; Redis at redis://127.0.0.1:6379, queue prefix humanlike-0123abcd). Press Ctrl-C to stop.',
    );
    const configured = readyLine({ url: 'http://localhost:8080', database: 'configured', redis: 'configured', redisUrl: 'redis://:***@r:6379', queuePrefix: 'humanlike', payments: configuredPayments, cards: configuredCards }, '/repo/.data');
    expect(configured).to.contain('PostgreSQL from DATABASE_URL; Redis from REDIS_URL').and.not.contain('***');
    expect(readyLine({ url: 'http://localhost:3000', database: 'embedded', redis: 'private', redisUrl: 'redis://127.0.0.1:41234', queuePrefix: 'p', payments: configuredPayments, cards: configuredCards }, '/d')).to.contain(
      'private Redis at redis://127.0.0.1:41234',
    );
  });

  it('prints a funded test wallet and how to pay with it only on the embedded chain', function () {
    const base = { url: 'http://localhost:3000', database: 'embedded', redis: 'local', redisUrl: 'redis://127.0.0.1:6379', queuePrefix: 'humanlike-0123abcd', cards: configuredCards } as const;
    expect(paymentLines({ ...base, payments: configuredPayments, cards: configuredCards })).to.deep.equal([]);
    const key = `0x${'ab'.repeat(32)}`;
    const lines = paymentLines({
      ...base,
      payments: { facilitator: 'embedded', network: 'eip155:8453', asset: '0x5FbDB2315678afecb367f032d93F642f64180aa3', payer: { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', privateKey: key } },
    });
    expect(lines.join('\n')).to.contain('Funded test wallet: 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC').and.contain(key).and.contain('humanlike.js pay --url http://localhost:3000');
  });

  it('says that nothing real is charged, and how to buy a pack, only with the local card processor', function () {
    const base = { url: 'http://localhost:3000', database: 'embedded', redis: 'local', redisUrl: 'redis://127.0.0.1:6379', queuePrefix: 'p', payments: configuredPayments } as const;
    expect(cardLines({ ...base, cards: configuredCards })).to.deep.equal([]);
    const text = cardLines({ ...base, cards: { processor: 'embedded', url: 'http://127.0.0.1:40123' } }).join('\n');
    expect(text).to.contain('nothing real is charged').and.contain('http://127.0.0.1:40123').and.contain('4242 4242 4242 4242');
    expect(text).to.contain('http://localhost:3000/api/card/checkout').and.contain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  });
});
