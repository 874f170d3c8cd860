import path from 'node:path';
import { expect } from 'chai';
import { banner, cardLines, findRootDir, operatorLines, paymentLines, readyLine } from '../../../supervisor/main';

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

  const payers = [
    { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', privateKey: `0x${'ab'.repeat(32)}` },
    { address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', privateKey: `0x${'cd'.repeat(32)}` },
    { address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', privateKey: `0x${'ef'.repeat(32)}` },
  ];
  const embeddedPayments = { facilitator: 'embedded', network: 'eip155:8453', asset: '0x5FbDB2315678afecb367f032d93F642f64180aa3', firstPayerIndex: 2, payers } as const;

  it('prints two funded test wallets with their keys, which accounts are funded, and how to pay, only on the embedded chain', function () {
    const base = { url: 'http://localhost:3000', database: 'embedded', redis: 'local', redisUrl: 'redis://127.0.0.1:6379', queuePrefix: 'humanlike-0123abcd', cards: configuredCards } as const;
    expect(paymentLines({ ...base, payments: configuredPayments, cards: configuredCards })).to.deep.equal([]);
    const text = paymentLines({ ...base, payments: embeddedPayments }).join('\n');
    expect(text).to.contain(`Funded test wallet: ${payers[0].address}`).and.contain(payers[0].privateKey);
    expect(text).to.contain(`Second funded wallet: ${payers[1].address}`).and.contain(payers[1].privateKey);
    expect(text).to.not.contain(payers[2].privateKey);
    expect(text).to.contain('accounts 2 to 4 of the public test mnemonic').and.contain('account 0 signs settlements and 1 is the treasury');
    expect(text).to.contain('npx humanlike pay --url http://localhost:3000').and.contain(`--asset ${embeddedPayments.asset}`);
  });

  it('says how to reach the operator tools: through the recorded embedded database, or the same DATABASE_URL', function () {
    const base = { url: 'http://localhost:3000', redis: 'local', redisUrl: 'redis://127.0.0.1:6379', queuePrefix: 'p', payments: configuredPayments, cards: configuredCards } as const;
    const embedded = operatorLines({ ...base, database: 'embedded' }, '/repo/.data').join('\n');
    expect(embedded).to.contain('npx humanlike admin token create --role admin --ttl 1d').and.contain('/repo/.data/database-url');
    expect(embedded).to.contain('http://localhost:3000/admin/queues').and.contain('Authorization: Bearer');
    expect(operatorLines({ ...base, database: 'configured' }, '/repo/.data').join('\n')).to.contain('the same DATABASE_URL').and.not.contain('database-url');
  });

  it('frames the banner between two rules, ready line first, one blank line between its parts', function () {
    const info = { url: 'http://localhost:3000', database: 'embedded', redis: 'local', redisUrl: 'redis://127.0.0.1:6379', queuePrefix: 'p', payments: embeddedPayments, cards: { processor: 'embedded', url: 'http://127.0.0.1:40123' } } as const;
    const lines = banner(info, '/repo/.data').split('\n');
    const rules = lines.flatMap((l, i) => (/^=+$/.test(l) ? [i] : []));
    expect(rules).to.have.length(2);
    const inside = lines.slice(rules[0] + 1, rules[1]);
    expect(inside[0]).to.match(/^humanlike is running at http:\/\/localhost:3000 /);
    expect(inside.filter((l) => l === '')).to.have.length(3);
    expect(inside.join('\n')).to.contain('Second funded wallet').and.contain('Operator tools').and.contain('Card packs');
  });

  it('says that nothing real is charged, and how to buy a pack, only with the local card processor', function () {
    const base = { url: 'http://localhost:3000', database: 'embedded', redis: 'local', redisUrl: 'redis://127.0.0.1:6379', queuePrefix: 'p', payments: configuredPayments } as const;
    expect(cardLines({ ...base, cards: configuredCards })).to.deep.equal([]);
    const text = cardLines({ ...base, cards: { processor: 'embedded', url: 'http://127.0.0.1:40123' } }).join('\n');
    expect(text).to.contain('nothing real is charged').and.contain('http://127.0.0.1:40123').and.contain('4242 4242 4242 4242');
    expect(text).to.contain('http://localhost:3000/api/card/checkout').and.contain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  });
});
