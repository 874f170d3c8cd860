import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { LEADERBOARD_CACHE_SECONDS } from './leaderboard';
import { certificateSchema, coachingCertificateSchema, leaderboardQuerySchema, leaderboardSchema, publicSessionSchema, scoreboardSchema, statsSchema } from './records.schema';
import { RECENT_PASSES } from './scoreboard';

const PRIVACY =
  'Free and public, read from the ledger of settled paid sessions. Wallets appear only as their first 6 and last 4 ' +
  'characters; no payer identity, transaction hash of another session, token or submitted text is ever shown.';

const HTML_NOTE = 'JSON by default; an Accept header that ranks text/html first (a browser) gets an HTML page (inline CSS, no script).';

/** OpenAPI specs of the public records. */
export const recordsOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/leaderboard',
    operationId: 'getLeaderboard',
    summary: 'Top bots by best EQ score, one row per wallet (wallet truncated).',
    description:
      `${PRIVACY} Ranks each wallet by its best EQ score over settled sessions that scored something (a bundle purchase ` +
      'scores nothing and is left out), optionally on one profile; a tie goes to the wallet that reached the score first. ' +
      `Cached for ${LEADERBOARD_CACHE_SECONDS} seconds per web process (and Cache-Control: public, max-age=${LEADERBOARD_CACHE_SECONDS}): ` +
      `a new best score shows within ${LEADERBOARD_CACHE_SECONDS} seconds. A limit outside 1..100, not an integer, or an unknown profile is a 422.`,
    tags: ['public'],
    query: leaderboardQuerySchema,
    responses: {
      '200': {
        description: 'The leaderboard.',
        schema: leaderboardSchema,
        headers: { 'Cache-Control': { description: `public, max-age=${LEADERBOARD_CACHE_SECONDS}`, schema: { type: 'string' } } },
      },
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/results/{result_id}',
    operationId: 'getPublicResult',
    summary: 'The privacy-safe public result of a settled session, passed or not.',
    description:
      `${PRIVACY} The result id is the result_id of a paid response. The public result has the profile, product, tier, ` +
      'EQ score, pass or fail, network, the truncated wallet and the settlement time; never the text, the advice or the transaction. ' +
      'An unknown id, and anything that is no UUID, is a 404 result_not_found.',
    tags: ['public'],
    responses: {
      '200': { description: 'The public result.', schema: publicSessionSchema },
      '404': { description: 'result_not_found: no settled session has this id (or it is no UUID).', schema: errorBodySchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
  {
    method: 'get',
    path: '/api/certificate/{tx_hash}',
    operationId: 'getCertificate',
    summary: 'The shareable certificate of a passed, settled session, addressed by its settlement transaction.',
    description:
      `${PRIVACY} ${HTML_NOTE} The HTML page carries Open Graph and Twitter card tags (title, description, url, image); ` +
      'the image (og:image, twitter:image) is GET /api/certificate/{tx_hash}/image.png (1200 x 630; most share crawlers ignore SVG), ' +
      'and the same image as SVG is GET /api/certificate/{tx_hash}/image.svg. A certificate exists only for a passed, settled ' +
      'session: an unknown, failed or unscored one, and anything that is no transaction hash, is a 404 certificate_not_found. ' +
      'EVM hashes are matched in any letter case. The same address serves coaching certificates (issue 13): an id ' +
      '`coaching-<uuid>` (never a transaction hash) names a completed coaching pack, issued when every drill bar and the ' +
      "pack's average bar are cleared; before that, or for an unknown id, it is a 404 certificate_not_found.",
    tags: ['public'],
    responses: {
      '200': {
        description: 'The certificate (JSON), or the certificate page (text/html): a session certificate, or a coaching certificate for a `coaching-<uuid>` id.',
        schema: { oneOf: [certificateSchema, coachingCertificateSchema] },
      },
      '404': { description: 'certificate_not_found.', schema: errorBodySchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
  {
    method: 'get',
    path: '/api/certificate/{tx_hash}/image.svg',
    operationId: 'getCertificateImage',
    summary: "The certificate's share image, image/svg+xml (1200 x 630); for a session or a coaching certificate.",
    tags: ['public'],
    responses: {
      '200': { description: 'The SVG image.' },
      '404': { description: 'certificate_not_found.', schema: errorBodySchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
  {
    method: 'get',
    path: '/api/certificate/{tx_hash}/image.png',
    operationId: 'getCertificateImagePng',
    summary: "The certificate's share image, image/png (1200 x 630).",
    description:
      'The SVG image drawn to PNG on the server (resvg), for share crawlers that ignore SVG. Drawn once per web process and ' +
      'kept for an hour (Cache-Control: public, max-age=3600). 404 certificate_not_found as for the certificate.',
    tags: ['public'],
    responses: {
      '200': { description: 'The PNG image.', mediaType: 'image/png', schema: { type: 'string', format: 'binary' } },
      '404': { description: 'certificate_not_found.', schema: errorBodySchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
  {
    method: 'get',
    path: '/api/scoreboard',
    operationId: 'getScoreboard',
    summary: 'The overall picture: sessions, pass rate, best score per profile, recent passes.',
    description: `${PRIVACY} ${HTML_NOTE} Lists the ${RECENT_PASSES} latest passes. Read live from the ledger.`,
    tags: ['public'],
    responses: {
      '200': { description: 'The scoreboard (JSON), or its page (text/html).', schema: scoreboardSchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
  {
    method: 'get',
    path: '/api/stats',
    operationId: 'getStats',
    summary: 'Live aggregate statistics; never per wallet.',
    description:
      `${PRIVACY} Sessions in total and over the last 24 hours, 7 and 30 days; scored and passed sessions and the pass rate; ` +
      'settled volume per network and asset in atomic units; distinct active wallets per window (counts only); the scoring ' +
      "queue's jobs by state (null when Redis does not answer within 1 s). Read live.",
    tags: ['public'],
    responses: {
      '200': { description: 'The statistics.', schema: statsSchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
];
