import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import type { Logger } from '../../shared/logger';
import { checkToken } from '../../shared/operators/credentials';
import type { WorkerMetrics } from './worker-metrics';

/** A running worker metrics endpoint. */
export interface MetricsServer {
  /** The port it listens on (the configured one, or the one the system picked for 0). */
  port: number;
  close(): Promise<void>;
}

const REALM = 'Bearer realm="humanlike-operators"';

function refuse(res: ServerResponse, status: number, code: string, message: string, challenge?: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...(challenge ? { 'WWW-Authenticate': challenge } : {}) });
  res.end(JSON.stringify({ error: { code, message, details: null } }));
}

/**
 * Serves a worker process's metrics at `GET /metrics` on their own port (`WORKER_METRICS_PORT`),
 * behind the same operator credential as the web's `/metrics` (`Authorization: Bearer hlo_...`):
 * 401 without a valid one, 403 with an admin one. A worker has no web server, and its job
 * durations belong to it: Prometheus scrapes each worker as it scrapes each web process.
 * Refusals are logged with the reason, never the token.
 * @param deps - the metrics, the DataSource credentials are checked against, a logger, where to listen
 * @returns the server, listening
 */
export async function serveWorkerMetrics(deps: { metrics: WorkerMetrics; dataSource: DataSource; log: Logger; host: string; port: number }): Promise<MetricsServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return refuse(res, 404, 'not_found', 'Only GET /metrics is served here.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method_not_allowed', 'Use GET.');
    const header = req.headers.authorization ?? '';
    if (header === '') return refuse(res, 401, 'credential_required', 'This path needs an operator credential: Authorization: Bearer <token>.', REALM);
    const bearer = /^Bearer +(\S+)$/i.exec(header.trim());
    const check = bearer ? await checkToken(deps.dataSource, bearer[1]) : ({ ok: false, reason: 'malformed' } as const);
    if (!check.ok) {
      deps.log.warn({ reason: check.reason }, 'worker metrics credential refused');
      const code = check.reason === 'expired' ? 'credential_expired' : check.reason === 'revoked' ? 'credential_revoked' : 'credential_invalid';
      return refuse(res, 401, code, 'The credential is not valid.', `${REALM}, error="invalid_token"`);
    }
    if (check.credential.role !== 'operator') return refuse(res, 403, 'credential_wrong_role', 'This path needs an operator credential.', `${REALM}, error="insufficient_scope", scope="operator"`);
    const body = await deps.metrics.registry.metrics();
    res.writeHead(200, { 'Content-Type': deps.metrics.registry.contentType });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      deps.log.error({ err }, 'worker metrics failed');
      if (!res.headersSent) refuse(res, 500, 'internal_error', 'The metrics could not be served.');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  deps.log.info({ host: deps.host, port }, 'worker metrics listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
