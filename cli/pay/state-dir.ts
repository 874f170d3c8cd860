import { join } from 'node:path';

/**
 * Where the client keeps local state (pending payments): `$HUMANLIKE_STATE_DIR`, else
 * `$XDG_STATE_HOME/humanlike`, else `~/.local/state/humanlike` (the XDG base directory default).
 * @param env - the environment
 * @param home - the user's home directory
 * @returns the directory (it may not exist yet)
 */
export function defaultStateDir(env: NodeJS.ProcessEnv, home: string): string {
  if (env.HUMANLIKE_STATE_DIR) return env.HUMANLIKE_STATE_DIR;
  // The XDG spec says a relative XDG_STATE_HOME is invalid and must be ignored.
  if (env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/')) return join(env.XDG_STATE_HOME, 'humanlike');
  return join(home, '.local', 'state', 'humanlike');
}
