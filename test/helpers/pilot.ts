import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import type { Http } from './stack';
import { until } from './until';

/** The pilot's participant header. */
export const PILOT_HEADER = 'X-AEI-PILOT-TOKEN';

/** Preferences that let the offering job invite at any time. */
export const ANY_TIME = { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from_hour_utc: 0, to_hour_utc: 24 };

/**
 * Enrolls a participant through the API, accepting the consent version the service serves.
 * @param http - the stack's supertest
 * @returns the token (shown once)
 */
export async function enroll(http: Http): Promise<string> {
  const consent = await http.get('/api/aei/pilot/consent').expect(200);
  const res = await http.post('/api/aei/pilot/enroll').send({ consent: true, consent_version: consent.body.pilot.version });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.token as string;
}

/**
 * A participant's GET /me.
 * @param http - the stack's supertest
 * @param token - the participant token
 * @returns the body
 */
export async function me(http: Http, token: string): Promise<Record<string, any>> {
  const res = await http.get('/api/aei/pilot/me').set(PILOT_HEADER, token);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/**
 * Waits until the offering job (on the stack's worker) has offered the participant an invitation.
 * @param http - the stack's supertest
 * @param token - the participant token
 * @returns the invitation
 */
export async function awaitInvitation(http: Http, token: string): Promise<Record<string, any>> {
  let invitation: Record<string, any> | null = null;
  await until(async () => (invitation = (await me(http, token)).invitation) !== null, 20_000, 'an invitation', 100);
  return invitation!;
}

/**
 * A POST with the participant token.
 * @param http - the stack's supertest
 * @param token - the participant token
 * @param path - the path under /api/aei/pilot
 * @param body - the JSON body
 * @returns the response
 */
export function pilotPost(http: Http, token: string, path: string, body: object = {}) {
  return http.post(`/api/aei/pilot/${path}`).set(PILOT_HEADER, token).send(body);
}

/**
 * Every row of every table of the database that holds a string (rows cast to text), as
 * `table: count`, so a test can show a value is nowhere.
 * @param ds - DataSource
 * @param needle - the string looked for (case-insensitive)
 * @returns the tables where it was found, with their counts
 */
export async function tablesHolding(ds: DataSource, needle: string): Promise<Record<string, number>> {
  const tables = (await ds.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  )) as Array<{ table_name: string }>;
  expect(tables.length).to.be.greaterThan(30);
  const found: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = (await ds.query(`SELECT count(*)::int AS n FROM "${table}" t WHERE strpos(lower(t::text), lower($1)) > 0`, [needle])) as Array<{ n: number }>;
    if (row.n > 0) found[table] = row.n;
  }
  return found;
}
