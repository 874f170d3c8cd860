import path from 'node:path';
import { loadConfig, publicOriginProblem } from '../shared/config';
import { createLogger } from '../shared/logger';
import { DATABASE_URL_FILE, findRootDir, stackDataDir } from '../shared/stack-files';
import { DevStack, type DevStackInfo } from './dev-stack';
import { DEFAULT_REDIS_PROBE } from './redis-choice';

export { findRootDir };

/** The command that runs the CLI from the repository, as the banner shows it (the README's form). */
const CLI = 'npx humanlike';

/**
 * The line `npm start` prints once the stack serves.
 * @param info - what the stack runs on
 * @param dataDir - the data folder
 * @returns one line
 */
export function readyLine(info: DevStackInfo, dataDir: string): string {
  const database = info.database === 'embedded' ? `embedded PostgreSQL in ${path.join(dataDir, 'pglite')}` : 'PostgreSQL from DATABASE_URL';
  const redis = info.redis === 'configured' ? 'Redis from REDIS_URL' : `${info.redis === 'private' ? 'private ' : ''}Redis at ${info.redisUrl}`;
  return `humanlike is running at ${info.url} (${database}; ${redis}, queue prefix ${info.queuePrefix}). Press Ctrl-C to stop.`;
}

/**
 * The lines `npm start` prints about payments: with the embedded chain, which accounts of the test
 * mnemonic hold test USDC, the first two funded wallets with their keys (duels and role-play
 * need two), and the command that pays with the first.
 * @param info - what the stack runs on
 * @returns lines to print (none when a real facilitator is configured)
 */
export function paymentLines(info: DevStackInfo): string[] {
  if (info.payments.facilitator !== 'embedded') return [];
  const { payers, network, asset, firstPayerIndex } = info.payments;
  const [first, second] = payers;
  const last = firstPayerIndex + payers.length - 1;
  return [
    `Payments settle on an embedded development chain (${network}, test USDC at ${asset}, nothing real; balances start over at each start).`,
    `Funded test wallets: accounts ${firstPayerIndex} to ${last} of the public test mnemonic "test test ... junk" hold test USDC ` +
      `(account 0 signs settlements and 1 is the treasury: they are not for paying). Two of them (duels and role-play need two):`,
    `  Funded test wallet: ${first.address}`,
    `  Its private key (public test mnemonic, development only): ${first.privateKey}`,
    `  Second funded wallet: ${second.address}`,
    `  Its private key (public test mnemonic, development only): ${second.privateKey}`,
    `Pay for a session: HUMANLIKE_PRIVATE_KEY=<the first key> ${CLI} pay --url ${info.url} --asset ${asset} --profile grief-support-peer --delay 45 "Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?"`,
  ];
}

/**
 * The lines `npm start` prints about the operator tools: how to mint a credential against this
 * stack's database, and where it opens.
 * @param info - what the stack runs on
 * @param dataDir - the data folder (where the embedded database's URL is recorded)
 * @returns lines to print
 */
export function operatorLines(info: DevStackInfo, dataDir: string): string[] {
  const where =
    info.database === 'embedded'
      ? `it finds this stack's embedded database through ${path.join(dataDir, DATABASE_URL_FILE)}, no DATABASE_URL needed`
      : 'with the same DATABASE_URL';
  return [
    `Operator tools: ${CLI} admin token create --role admin --ttl 1d (${where}; --role operator for reads).`,
    `  Send the token as "Authorization: Bearer <token>" to ${info.url}/api/admin/network-config, or open ${info.url}/admin/queues (any user name, the token as password).`,
  ];
}

/**
 * Everything `npm start` tells a person once the stack serves, framed so it stands out from the
 * JSON log lines (which stay on stdout, for machines).
 * @param info - what the stack runs on
 * @param dataDir - the data folder
 * @returns the banner, newline-terminated
 */
export function banner(info: DevStackInfo, dataDir: string): string {
  const rule = '='.repeat(100);
  const sections = [[readyLine(info, dataDir)], paymentLines(info), operatorLines(info, dataDir), cardLines(info)].filter((lines) => lines.length > 0);
  return `\n${rule}\n${sections.map((lines) => lines.join('\n')).join('\n\n')}\n${rule}\n\n`;
}

/**
 * The lines `npm start` prints about card packs: with the local development card processor, that
 * nothing real is charged and how to buy a pack.
 * @param info - what the stack runs on
 * @returns lines to print (none when Stripe is configured)
 */
export function cardLines(info: DevStackInfo): string[] {
  if (info.cards.processor !== 'embedded') return [];
  return [
    `Card packs are paid on a local development card processor at ${info.cards.url} (test mode: nothing real is charged; card 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined).`,
    `Buy a pack: curl -s -X POST ${info.url}/api/card/checkout -H 'Content-Type: application/json' -d '{"pack":"starter"}' and open its checkout_url (docs/card-packs.md). Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for real Stripe.`,
  ];
}

async function main(): Promise<void> {
  const env = process.env;
  const config = loadConfig(env);
  const problem = publicOriginProblem(config);
  if (problem) {
    // Before anything starts: web would refuse the same configuration, and be restarted for it.
    process.stderr.write(`npm start: ${problem}\n`);
    process.exitCode = 1;
    return;
  }
  const log = createLogger(config, 'supervisor');
  const rootDir = findRootDir(__dirname);
  const dataDir = stackDataDir(env, rootDir);

  let failed = false;
  let stopping: Promise<void> | undefined;
  const stack: DevStack = new DevStack({
    env,
    config,
    dataDir,
    rootDir,
    redis: { probe: DEFAULT_REDIS_PROBE, binary: 'redis-server', searchPath: env.PATH ?? '' },
    log,
    onFailure(reason) {
      log.error({ reason }, 'stack failed');
      process.stderr.write(`npm start: ${reason}; stopping everything.\n`);
      failed = true;
      void shutdown('failure');
    },
  });

  const shutdown = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      log.info({ reason }, 'stopping');
      // Every step has its own deadline; this is the last resort if one of them never returns.
      const lastResort = setTimeout(
        () => {
          log.error('stop timed out');
          stack.kill();
          process.exit(1);
        },
        2 * (config.shutdownGraceMs + 6_000) + 15_000,
      ).unref();
      clearInterval(orphanCheck);
      const clean = await stack.stop();
      clearTimeout(lastResort);
      process.exitCode = clean && !failed ? 0 : 1;
      log.info({ clean }, 'stopped');
    })();
    return stopping;
  };

  let firstSignalAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // One Ctrl-C can arrive twice (from the terminal and forwarded by npm): only a repeat after
    // a second counts as "stop now".
    if (firstSignalAt !== undefined) {
      if (Date.now() - firstSignalAt < 1_000) return;
      log.warn({ signal }, 'second signal: killing everything now');
      stack.kill();
      process.exit(130);
    }
    firstSignalAt = Date.now();
    void shutdown(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

  // npm runs this under `sh -c`; when npm is killed, the shell dies without passing the signal on.
  // Stop when the process that started us goes away rather than run on as an orphan.
  const parent = process.ppid;
  const orphanCheck = setInterval(() => {
    if (process.ppid !== parent) void shutdown('parent exited');
  }, 1_000).unref();

  try {
    const info = await stack.start();
    log.info({ url: info.url, database: info.database, redis: info.redis, queuePrefix: info.queuePrefix }, 'stack ready');
    // For the person who ran npm start: on stderr, so the JSON lines on stdout stay machine-readable.
    process.stderr.write(banner(info, dataDir));
  } catch (err) {
    // Stopped by a signal while starting: shutdown() sets the exit code.
    if (stopping) return;
    process.stderr.write(`npm start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`npm start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
