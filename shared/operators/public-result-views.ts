import type { DataSource } from 'typeorm';

/** The public pages whose views open the conversion funnel. */
export type PublicPage = 'result' | 'certificate';

/**
 * Counts one view of a public result or certificate page under today's UTC date. Only the count
 * is kept: no address, caller hash, result id or time of day, so the funnel can never be joined
 * back to a viewer or a session.
 * @param ds - DataSource
 * @param page - which kind of page was served
 */
export async function recordPublicView(ds: DataSource, page: PublicPage): Promise<void> {
  await ds.query(
    `INSERT INTO public_result_views (day, page, views) VALUES ((now() AT TIME ZONE 'UTC')::date, $1, 1)
     ON CONFLICT (day, page) DO UPDATE SET views = public_result_views.views + 1`,
    [page],
  );
}
