/** What a web or worker process tells the `npm start` supervisor once it serves. */
export interface ReadyMessage {
  type: 'ready';
  role: 'web' | 'worker';
  /** The port the API bound (web only). */
  port?: number;
}

/**
 * Under the `npm start` supervisor (the process has an IPC channel): tells it the process is
 * ready, and stops the process when the channel closes, so a supervisor that dies never leaves a
 * web or worker running. Outside a supervisor (Procfile roles, tests) it does nothing.
 * @param message - the ready message
 * @param stop - the process's graceful stop (idempotent; also bound to SIGTERM)
 */
export function reportReadyToSupervisor(message: ReadyMessage, stop: () => void): void {
  if (!process.send || !process.connected) return;
  // A 'disconnect' listener keeps the channel referenced: the supervisor closes it when it asks
  // the process to stop, so this never holds a stopping process open.
  process.once('disconnect', stop);
  process.send(message);
}
