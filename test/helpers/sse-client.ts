import http from 'node:http';

/** One request to an event stream, kept open: what a browser's EventSource holds. */
export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The whole body of a refusal (a stream that is not 200 ends); empty for an open stream. */
  body: string;
  /** Settlement events received so far, parsed. */
  events: Array<Record<string, unknown>>;
  /** Resolves once `count` events have arrived. */
  next(count: number): Promise<void>;
  /** Whether the server closed the connection. */
  readonly closed: boolean;
  /** Drops the connection, as a closed browser tab does. */
  close(): void;
}

/**
 * Opens `GET <url>` with its own socket (no agent) and resolves once the response headers arrive,
 * or, for a status other than 200, once its whole body has.
 * @param url - the stream URL
 * @param headers - request headers (e.g. X-Forwarded-For as the proxy wrote it)
 * @returns the connection
 */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers }, (res) => {
      const events: SseConnection['events'] = [];
      const waiters: Array<{ count: number; resolve: () => void }> = [];
      let buffer = '';
      let closed = false;
      res.setEncoding('utf8');
      res.on('close', () => {
        closed = true;
      });
      const connection: SseConnection = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: '',
        events,
        next: (count) => (events.length >= count ? Promise.resolve() : new Promise<void>((r) => waiters.push({ count, resolve: r }))),
        get closed() {
          return closed;
        },
        close: () => req.destroy(),
      };
      if (res.statusCode !== 200) {
        res.on('data', (chunk: string) => (connection.body += chunk));
        res.on('end', () => resolve(connection));
        return;
      }
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: settlement$/m.test(block) && data) events.push(JSON.parse(data) as Record<string, unknown>);
        }
        for (const w of [...waiters]) if (events.length >= w.count) w.resolve();
      });
      resolve(connection);
    });
    req.on('error', reject);
  });
}
