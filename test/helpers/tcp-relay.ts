import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay to a real server that a test can cut, as if the server went away. */
export interface TcpRelay {
  /** host:port clients connect to. */
  readonly port: number;
  /** Drops every relayed connection and refuses new ones. */
  cut(): Promise<void>;
  /** Drops every relayed connection and drops new ones at once, keeping the port, until {@link resume}. */
  pause(): void;
  /** Relays new connections again after {@link pause}. */
  resume(): void;
}

/**
 * Relays 127.0.0.1:<port> to a target (e.g. the test PostgreSQL), so a client can be connected
 * for real and then lose its server mid-run.
 * @param target - where to relay
 * @returns the relay
 */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let paused = false;
  const server: Server = createServer((client) => {
    if (paused) {
      client.destroy();
      return;
    }
    const upstream = createConnection(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('relay has no port');
  return {
    port: address.port,
    pause() {
      paused = true;
      for (const s of sockets) s.destroy();
    },
    resume() {
      paused = false;
    },
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
