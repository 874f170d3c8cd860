import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay to a real server that a test can cut, as if the server went away. */
export interface TcpRelay {
  /** host:port clients connect to. */
  readonly port: number;
  /** Resolves when a connection first sent `holdFrom` (never, without that option). */
  readonly held: Promise<void>;
  /** Drops every relayed connection and refuses new ones. */
  cut(): Promise<void>;
  /** Drops every relayed connection and drops new ones at once, keeping the port, until {@link resume}. */
  pause(): void;
  /** Relays new connections again after {@link pause}. */
  resume(): void;
}

/** What the relay does besides relaying. */
export interface TcpRelayOptions {
  /**
   * Bytes that freeze a client: from the chunk in which a connection first sends them, nothing more
   * of what it sends reaches the server (its answers still come back). A command whose bytes include
   * them is therefore never executed, e.g. a BullMQ worker's move of a job to `<prefix>:<queue>:completed`.
   */
  holdFrom?: string;
}

/**
 * Relays 127.0.0.1:<port> to a target (e.g. the test PostgreSQL), so a client can be connected
 * for real and then lose its server mid-run, or have one of its commands held back.
 * @param target - where to relay
 * @param options - see {@link TcpRelayOptions}
 * @returns the relay
 */
export async function startTcpRelay(target: { host: string; port: number }, options: TcpRelayOptions = {}): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let paused = false;
  let markHeld!: () => void;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
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
    upstream.pipe(client);
    const marker = options.holdFrom;
    if (!marker) {
      client.pipe(upstream);
      return;
    }
    // The marker may straddle two reads: keep the tail of what was sent to search across them.
    let tail = '';
    let holding = false;
    client.on('data', (chunk: Buffer) => {
      if (holding) return;
      const text = tail + chunk.toString('latin1');
      if (text.includes(marker)) {
        holding = true;
        markHeld();
        return;
      }
      tail = text.slice(-marker.length);
      upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
    client.on('close', () => upstream.destroy());
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
    held,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
