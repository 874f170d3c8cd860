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
