/** Hands out an account's transaction nonces one send at a time. */
export interface NonceSequencer {
  /**
   * Runs `broadcast` with the next nonce once every earlier send has returned. Only the broadcast
   * is serialized; callers wait for receipts outside, concurrently.
   * @param broadcast - prepares, signs and sends one transaction with the given nonce
   * @returns what `broadcast` returned (usually the transaction hash)
   */
  send<T>(broadcast: (nonce: number) => Promise<T>): Promise<T>;
}

/**
 * Serializes one account's sends and numbers them locally. Concurrent settlements from one
 * facilitator key otherwise race for the same `pending` nonce and all but one fail.
 * viem's `nonceManager` numbers sends without a queue, but measured on the development chain
 * (50 concurrent settlements, after earlier settle retries had failed in gas estimation) it lost
 * about half of them ("Nonce too low. Expected nonce to be 98 but got 71"): it takes the nonce
 * before gas estimation, resets its count after every failed send while other sends hold later
 * nonces, and sends can reach the node out of order, which an automining node does not queue.
 * With this queue all 50 landed, also with reverting payloads mixed in, in about 0.3-0.4 s.
 * Only the broadcast (prepare, sign, send: a few milliseconds in process, a few RPC round trips on
 * a real chain) is serialized; receipt waits stay concurrent. A failed send, whatever the cause,
 * makes the next one re-read the pending nonce, which counts the failed transaction exactly when
 * the node took it.
 * @param pendingNonce - reads the account's `pending` transaction count
 * @returns the sequencer
 */
export function createNonceSequencer(pendingNonce: () => Promise<number>): NonceSequencer {
  let tail: Promise<unknown> = Promise.resolve();
  let next: number | undefined;
  return {
    send<T>(broadcast: (nonce: number) => Promise<T>): Promise<T> {
      const run = async (): Promise<T> => {
        next ??= await pendingNonce();
        const nonce = next;
        try {
          const result = await broadcast(nonce);
          next = nonce + 1;
          return result;
        } catch (err) {
          next = undefined;
          throw err;
        }
      };
      const result = tail.then(run, run);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
