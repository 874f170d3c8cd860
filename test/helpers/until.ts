/**
 * Waits until `check` holds, polling.
 * @param check - the condition (may be async)
 * @param ms - how long to wait
 * @param what - what is waited for, in the timeout's message
 * @param everyMs - polling interval
 * @throws Error when `ms` passes first
 */
export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string, everyMs = 20): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
