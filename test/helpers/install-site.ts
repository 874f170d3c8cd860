import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Http } from './stack';

/**
 * A developer's site on loopback, under the test's control: the files it serves are set per path
 * (text and media type), everything else is 404. It counts connections, so a test can show that a
 * refused fetch never reached it.
 */
export interface InstallSite {
  port: number;
  origin: string;
  connections(): number;
  /** Requests answered so far (a pooled connection may carry several). */
  requests(): number;
  serve(path: string, body: string, type?: string): void;
  /** Answers a path with a 302 to another address. */
  redirect(path: string, location: string): void;
  remove(path: string): void;
  close(): Promise<void>;
}

/**
 * Starts the site on 127.0.0.1 and a free port.
 * @returns the site
 */
export async function startInstallSite(): Promise<InstallSite> {
  const files = new Map<string, { body: string; type: string; location?: string }>();
  let connections = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests += 1;
    const file = files.get(new URL(req.url ?? '/', 'http://site').pathname);
    if (!file) {
      res.statusCode = 404;
      res.setHeader('content-type', 'text/plain');
      res.end('not found');
      return;
    }
    if (file.location) {
      res.statusCode = 302;
      res.setHeader('location', file.location);
      res.end();
      return;
    }
    res.setHeader('content-type', file.type);
    res.end(file.body);
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests: () => requests,
    serve: (path, body, type = 'text/plain') => files.set(path, { body, type }),
    redirect: (path, location) => files.set(path, { body: '', type: 'text/plain', location }),
    remove: (path) => files.delete(path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The page a developer publishes: some content and the snippet pasted into it. */
export function pageWith(snippet: string): string {
  return `<!doctype html><html><head><title>Support</title></head><body><h1>Reply</h1>\n${snippet}\n</body></html>`;
}

/**
 * Runs the free install workflow against a site up to a verified install.
 * @param http - the API
 * @param site - the loopback site
 * @param pagePath - where the snippet goes
 * @returns the workflow id and the snippet
 */
export async function verifyInstall(http: Http, site: InstallSite, pagePath = '/support'): Promise<{ id: string; snippet: string }> {
  const started = await http.post('/api/catalog/free-installs/start').send({ site_origin: site.origin, offering_id: 'embedded-check' }).expect(201);
  const id = started.body.workflow_id as string;
  site.serve(started.body.challenge.path, `${started.body.challenge.content}\n`);
  await http.post(`/api/catalog/free-installs/${id}/challenge-published`).expect(200);
  await http.post(`/api/catalog/free-installs/${id}/installation`).send({ page_url: `${site.origin}${pagePath}` }).expect(201);
  const code = await http.get(`/api/catalog/free-installs/${id}/code`).expect(200);
  site.serve(pagePath, pageWith(code.body.snippet), 'text/html; charset=utf-8');
  await http.post(`/api/catalog/free-installs/${id}/live-verification`).expect(200);
  return { id, snippet: code.body.snippet as string };
}
