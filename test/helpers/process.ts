/**
 * Whether a process id is still alive (signal 0 probes without sending anything).
 * @param pid - the process id
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
