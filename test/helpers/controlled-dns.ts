import type { LookupFunction } from 'node:net';

/** A name resolver whose answers the test gives, with the names it was asked. */
export type ControlledDns = LookupFunction & { asked: string[] };

/**
 * Names resolve only to what the test says: no query leaves the machine, and a public-looking name
 * can answer a private address. A name given several addresses answers them in turn (the last one
 * from then on), as a rebinding name would.
 * @param answers - name -> address, or the addresses it answers in turn
 * @returns the resolver, for an outbound policy's `lookup`
 */
export function controlledDns(answers: Record<string, string | string[]>): ControlledDns {
  const asked: string[] = [];
  const queues = new Map(Object.entries(answers).map(([name, a]) => [name, Array.isArray(a) ? [...a] : [a]]));
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const queue = queues.get(hostname);
    const address = queue?.length ? (queue.length > 1 ? queue.shift()! : queue[0]!) : undefined;
    if (address === undefined) {
      callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      return;
    }
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as ControlledDns;
  lookup.asked = asked;
  return lookup;
}
