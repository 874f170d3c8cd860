import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { post, runClosedLoop } from '../../../../scripts/bench/closed-loop';

// The bench's closed loop for calls that wait a block (speed goal 1 in docs/performance.md): its counts are only
// honest if callers start spread, the window counts what completes inside it, and nothing is sent
// after the window closes. A local server answers each POST after a fixed delay.
describe('bench closed loop', function () {
  this.timeout(10_000);
  const DELAY_MS = 40;
  let server: http.Server;
  let url: string;
  let arrivals: number[];
  /** Each connection's first request, by its client port. */
  let firstOfConnection: Map<number, number>;
  let inFlight: number;

  before(async () => {
    server = http.createServer((req, res) => {
      // Every fourth request is refused, decided as it arrives (at answer time the count depends
      // on how many others arrived meanwhile), so statuses are counted apart.
      const refused = arrivals.push(performance.now()) % 4 === 0;
      if (!firstOfConnection.has(req.socket.remotePort ?? 0)) firstOfConnection.set(req.socket.remotePort ?? 0, performance.now());
      inFlight++;
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          inFlight--;
          res.statusCode = refused ? 503 : 200;
          res.end('{}');
        }, DELAY_MS),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  beforeEach(() => {
    arrivals = [];
    firstOfConnection = new Map();
    inFlight = 0;
  });

  after(() => new Promise((resolve) => server.close(resolve)));

  it('spreads the callers, counts what completes in the window, and sends nothing after it', async () => {
    const edges: Array<[string, number]> = [];
    const started = performance.now();
    const result = await runClosedLoop({
      url,
      connections: 4,
      warmupSeconds: 0.2,
      seconds: 0.6,
      staggerMs: 120,
      call: async (agent) => (await post(url, agent, { 'content-type': 'application/json' }, '{}', 5_000)).status,
      onWindow: (edge) => edges.push([edge, performance.now() - started]),
    });

    expect(edges.map(([edge]) => edge)).to.deep.equal(['open', 'close']);
    const [opened, closed] = edges.map(([, at]) => at);
    expect(opened).to.be.within(190, 350);
    expect(closed - opened).to.be.within(590, 750);
    // Caller i started i/4 of 120 ms late: the four callers' first requests span about 90 ms, not 0.
    const firsts = [...firstOfConnection.values()].sort((a, b) => a - b);
    expect(firsts).to.have.length(4);
    expect(firsts[3] - firsts[0]).to.be.within(75, 200);
    // No request after the window closed (one sent just before it reaches the server a moment
    // later), and none still open when the loop returned.
    expect(Math.max(...arrivals) - started).to.be.below(closed + 10);
    expect(inFlight).to.equal(0);
    // 4 callers x 600 ms / (40 ms + overhead): at most 60 completions, and far more than none.
    const completed = Object.values(result.statusCounts).reduce((a, b) => a + b, 0);
    expect(completed).to.be.within(20, 60);
    expect(completed).to.be.below(arrivals.length);
    expect(result.statusCounts['503']).to.be.greaterThan(0);
    expect(result.statusCounts['200']).to.be.greaterThan(result.statusCounts['503']);
    expect(result.latencies).to.have.length(completed);
    expect(Math.min(...result.latencies)).to.be.at.least(DELAY_MS - 1);
    expect(result).to.include({ seconds: 0.6, errors: 0, timeouts: 0 });
  });

  it('counts a refused connection as an error, not a status', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const result = await runClosedLoop({
      url: `http://127.0.0.1:${closedPort}/`,
      connections: 1,
      warmupSeconds: 0,
      seconds: 0.1,
      staggerMs: 0,
      call: async (agent) => (await post(`http://127.0.0.1:${closedPort}/`, agent, {}, '{}', 1_000)).status,
    });
    expect(result.errors).to.be.greaterThan(0);
    expect(result.statusCounts).to.deep.equal({});
    expect(result.latencies).to.deep.equal([]);
  });
});
