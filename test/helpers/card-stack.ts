import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { startLocalCardProcessor, type LocalCardProcessor } from '../../card-processor';
import { createApp } from '../../api/app';
import { createLogger } from '../../shared/logger';
import { loadConfig } from '../../shared/config';
import { startTestStack, type TestStack } from './stack';

/** A test stack whose card payments go to the local card processor, served on a real port for its webhooks. */
export interface CardStack {
  stack: TestStack;
  processor: LocalCardProcessor;
  /** The API's base URL (loopback). */
  url: string;
  /** Every log line the API and worker wrote (debug level), for "never in a log" checks. */
  logs: string[];
  /** Rows in a table. */
  count(table: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the local card processor and a test stack pointed at it with the official SDK, listening
 * on a loopback port that the processor's webhooks are sent to.
 * @param suite - suite name (the queue prefix)
 * @param options - `worker: false` for no in-process worker; env overrides
 * @returns the stack
 */
export async function startCardStack(suite: string, options: { worker?: boolean; env?: Record<string, string> } = {}): Promise<CardStack> {
  const processor = await startLocalCardProcessor({ webhookRetryDelaysMs: [200, 500, 1_000] });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger(loadConfig({ LOG_LEVEL: 'debug' }), 'test', sink);
  let stack: TestStack;
  try {
    stack = await startTestStack(suite, {
      worker: options.worker,
      logger,
      env: {
        STRIPE_SECRET_KEY: processor.secretKey,
        STRIPE_WEBHOOK_SECRET: processor.webhookSecret,
        STRIPE_API_URL: processor.url,
        // The scheduled card jobs run when a test adds them, not on their own between tests.
        CARD_MAINTENANCE_EVERY_MS: '86400000',
        ...options.env,
      },
    });
  } catch (err) {
    await processor.close();
    throw err;
  }
  const server: Server = createApp(stack.deps).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  processor.setWebhookUrl(`${url}/api/card/webhook`);
  return {
    stack,
    processor,
    url,
    logs,
    async count(table) {
      const rows = (await stack.deps.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as Array<{ n: number }>;
      return rows[0].n;
    },
    async close() {
      try {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await stack.close();
      } finally {
        await processor.close();
      }
    },
  };
}

/**
 * Pays a hosted checkout page over plain HTTP, as its form posts.
 * @param checkoutUrl - the session's page
 * @param cardNumber - e.g. 4242 4242 4242 4242
 * @returns the page's answer (303 to the success URL when paid)
 */
export async function payCheckout(checkoutUrl: string, cardNumber: string): Promise<Response> {
  return fetch(checkoutUrl, {
    method: 'POST',
    body: new URLSearchParams({ cardholder_name: 'Ada Lovelace', card_number: cardNumber, card_expiry: '12 / 34', card_cvc: '123' }),
    redirect: 'manual',
  });
}
