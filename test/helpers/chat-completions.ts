import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the local provider answers the next calls. */
export type ChatMode =
  /** 200 with the configured content. */
  | 'ok'
  /** 200 whose body is not JSON. */
  | 'malformed'
  | '429'
  | '500'
  /** Never answers (the connection stays open until the client gives up or the server closes). */
  | 'hang'
  /** Holds each call until `release()`, then answers as `ok`. */
  | 'gate';

/** One call the provider received (the request body as JSON). */
export interface ChatCall {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** A local implementation of the chat-completions wire protocol (`POST /v1/chat/completions`). */
export interface LocalChatProvider {
  /** Base URL to configure (`http://127.0.0.1:<port>/v1`). */
  url: string;
  mode: ChatMode;
  /** The assistant message content of `ok` and `gate` answers (default: no issues). */
  content: string;
  calls: ChatCall[];
  /** Answers every held `gate` call. */
  release(): void;
  close(): Promise<void>;
}

/**
 * Starts the provider on a loopback port.
 * @returns the provider; close it in `after`
 */
export async function startChatProvider(): Promise<LocalChatProvider> {
  const held: Array<() => void> = [];
  const open = new Set<ServerResponse>();
  const provider: LocalChatProvider = {
    url: '',
    mode: 'ok',
    content: '{"issues":[]}',
    calls: [],
    release() {
      for (const answer of held.splice(0)) answer();
    },
    close: async () => undefined,
  };
  const answerOk = (res: ServerResponse, model: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-local',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: provider.content } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // recorded as an empty body; the test sees it
      }
      provider.calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      open.add(res);
      res.on('close', () => open.delete(res));
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"not found"}}');
        return;
      }
      switch (provider.mode) {
        case 'ok':
          return answerOk(res, body.model);
        case 'gate':
          held.push(() => answerOk(res, body.model));
          return;
        case 'malformed':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"choices": [ this is not json');
          return;
        case '429':
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
          res.end('{"error":{"message":"rate limited","type":"rate_limit"}}');
          return;
        case '500':
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":{"message":"server error"}}');
          return;
        case 'hang':
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  provider.close = async () => {
    provider.release();
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return provider;
}
