import { createLogger } from '../shared/logger';
import { loadFacilitatorConfig } from './config';
import { startFacilitator, startLocalFacilitator } from './index';

// A stop that takes longer than this (in-flight settles waiting for receipts) exits anyway.
const STOP_DEADLINE_MS = 15_000;

async function main(): Promise<void> {
  const config = loadFacilitatorConfig(process.env);
  const logger = createLogger({ log: { level: config.logLevel } }, 'facilitator');
  const listen = { port: config.port, host: config.host, logger };

  let close: () => Promise<void>;
  if (config.chain) {
    const running = await startFacilitator(config.chain, listen);
    close = running.close;
    logger.info({ url: running.url, network: running.network, signer: running.signer }, 'facilitator ready');
  } else {
    const running = await startLocalFacilitator({ ...listen, blockTimeMs: config.devBlockTimeMs });
    close = running.close;
    // The development accounts come from the public test mnemonic: their keys are no secret.
    const payer = running.payers[0];
    logger.info(
      {
        url: running.url,
        rpcUrl: running.rpcUrl,
        network: running.network,
        asset: running.asset,
        treasury: running.treasury,
        signer: running.signer,
        payer: { address: payer.address, privateKey: payer.privateKey },
      },
      'facilitator ready on the development chain',
    );
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'facilitator shutting down');
    setTimeout(() => {
      logger.error('facilitator shutdown timed out');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    close().then(
      () => logger.info('facilitator stopped'),
      (err: unknown) => {
        logger.error({ err }, 'facilitator shutdown failed');
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`facilitator failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
