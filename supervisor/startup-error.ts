/**
 * Why `npm start` cannot go on, in one line that says what to do about it. A local error: the
 * supervisor prints its message and exits 1; it never crosses a process or the network.
 */
export class StartupError extends Error {
  /**
   * @param message - one line, no trailing period needed
   * @param cause - the underlying error, if any
   */
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'StartupError';
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
