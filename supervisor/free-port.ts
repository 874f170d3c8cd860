import { createServer } from 'node:net';

/**
 * A TCP port nothing listens on right now (bound once on the host, then released). Another process
 * could take it before it is used; callers that spawn a server on it retry on failure.
 * @param host - interface to probe
 * @returns the port
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}
