/**
 * Whether a request path is a prefix's own path or lies under it: `/admin` and `/admin/queues`
 * are under `/admin`, `/administrator` is not.
 * @param path - the request path
 * @param prefix - a path prefix without a trailing slash
 * @returns true at or under the prefix
 */
export function isPathUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The form of a path that every spelling of it shares: percent-escapes decoded, letters in lower
 * case, runs of slashes collapsed, no trailing slash. Protection decides on this form, so a
 * spelling some component (a mounted sub-app with a looser router, a proxy) would still take for a
 * guarded path is guarded too; the API's own router matches only the exact spelling.
 * @param path - the request path as received
 * @returns its canonical form
 */
export function canonicalPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape is kept as it is; it names no route either way.
  }
  const collapsed = decoded.toLowerCase().replace(/\/{2,}/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
}
