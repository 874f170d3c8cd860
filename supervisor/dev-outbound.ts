/** The loopback addresses a development stack lets the outbound guard reach, unless told otherwise. */
export const DEV_OUTBOUND_ALLOW_ADDRESSES = '127.0.0.1,::1';

/**
 * The outbound guard's widening for `npm start`. A developer trying the free install workflow
 * serves the "site" on localhost, so the development stack lets loopback addresses through by
 * default; the ports stay 80 and 443 unless `OUTBOUND_ALLOW_PORTS` names the site's port. Any value
 * set in the environment, even an empty one, is kept as given. Production starts web and worker
 * directly (the Procfile), where both lists default to empty and loopback is refused.
 * @param env - the environment `npm start` was given
 * @returns the variables to add to web's and worker's environment
 */
export function devOutboundEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return env.OUTBOUND_ALLOW_ADDRESSES === undefined ? { OUTBOUND_ALLOW_ADDRESSES: DEV_OUTBOUND_ALLOW_ADDRESSES } : {};
}
