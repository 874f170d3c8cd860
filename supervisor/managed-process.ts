import type { ChildProcess } from 'node:child_process';

/** How a child process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How a stop went. */
export interface StopOutcome extends ExitInfo {
  /** True when the child outlived its deadline and was killed. */
  forced: boolean;
}

/** A child process the supervisor owns: web, worker or a private redis-server. */
export interface ManagedProcess {
  readonly role: string;
  readonly pid: number;
  /** Settles when the child has exited, for whatever reason. */
  readonly exited: Promise<ExitInfo>;
  /**
   * Asks the child to stop (SIGTERM, and the IPC channel closed when there is one) and waits up to
   * the deadline, then kills its process group.
   * @param deadlineMs - how long the child gets to stop on its own
   * @returns how it ended
   */
  stop(deadlineMs: number): Promise<StopOutcome>;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // The children run in their own process group (spawned detached), so a terminal's Ctrl-C reaches
    // only the supervisor, which then stops them in order; -pid reaches anything they started.
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Wraps a spawned child (spawned with `detached: true`) into a {@link ManagedProcess}.
 * @param role - name used in logs and messages
 * @param child - the spawned child; must have a pid
 * @returns the handle
 * @throws Error when the child has no pid (spawn failed)
 */
export function manageProcess(role: string, child: ChildProcess): ManagedProcess {
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${role} did not start`);
  let info: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      info = { code, signal };
      resolve(info);
    });
  });
  let stopping: Promise<StopOutcome> | undefined;
  return {
    role,
    pid,
    exited,
    stop(deadlineMs) {
      stopping ??= (async () => {
        if (info) return { ...info, forced: false };
        child.kill('SIGTERM');
        if (child.connected) child.disconnect();
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), deadlineMs);
        });
        try {
          const first = await Promise.race([exited, late]);
          if (first !== 'late') return { ...first, forced: false };
        } finally {
          clearTimeout(timer);
        }
        signalGroup(pid, 'SIGKILL');
        return { ...(await exited), forced: true };
      })();
      return stopping;
    },
  };
}

/**
 * Kills a child's whole process group at once (the supervisor's second Ctrl-C).
 * @param proc - the child
 */
export function killNow(proc: ManagedProcess): void {
  signalGroup(proc.pid, 'SIGKILL');
}
