import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { LEADERBOARD_CACHE_SECONDS } from './leaderboard';
import { certificateSchema, coachingCertificateSchema, leaderboardQuerySchema, leaderboardSchema, publicSessionSchema, scoreboardSchema, statsSchema } from './records.schema';
import { RECENT_PASSES } from './scoreboard';

const PRIVACY =
  'Free and public, read from the ledger of settled paid sessions. Wallets appear only as their first 6 and last 4 ' +
  'characters; no payer identity, transaction hash of another session, token or submitted text is ever shown.';

/** What the records mean by a settled ledger row and by a scored session; said once, shown wherever EQ is ranked. */
const LEDGER_NOTE =
  'The ledger has one row per settled payment (x402 USDC, or the legacy SOL rail): each paid call of every product, and each ' +
  'bundle purchase. An EQ score comes only from a scored session, a reply scored against a profile: a paid simulate session or a ' +
  "duel leg. A stress test's mean, a rewrite's after-score and a script check's adherence are no EQ score, and reports and " +
  'purchases score nothing: they count in sessions and volume, never in rankings, pass rates or certificates. A basic session ' +
  'paid with a bundle credit is not a settled ledger row (the bundle purchase was settled, once): it answers its buyer in full, ' +
  'but appears in no public record, live feed, statistic, progress report, training dataset or duel fee.';

const HTML_NOTE = 'JSON by default; an Accept header that ranks text/html first (a browser) gets an HTML page (inline CSS, no script).';

/** OpenAPI specs of the public records. */
export const recordsOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/leaderboard',
    operationId: 'getLeaderboard',
    summary: 'Top bots by best EQ score, one row per wallet (wallet truncated).',
    description:
      `${PRIVACY} ${LEDGER_NOTE} Ranks each wallet by its best EQ score over its scored sessions, optionally on one profile; ` +
      'a tie goes to the wallet that reached the score first. ' +
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
      `${PRIVACY} The result id is the result_id of a paid response. The public result has the profile, product, its kind and ` +
      'label, tier, EQ score and pass or fail (a scored session only; null for every other kind), network, the truncated wallet and ' +
      'the settlement time; never the text, the advice or the transaction. ' +
      `An unknown id, and anything that is no UUID, is a 404 result_not_found. ${HTML_NOTE} The page (what a certificate's ` +
      '"Public result" link opens) shows the same members: the EQ score and verdict of a scored session, or for any other ' +
      'product what it is and that it has no EQ score.',
    tags: ['public'],
    responses: {
      '200': {
        description: 'The public result (JSON), or its page (text/html).',
        schema: publicSessionSchema,
        alternatives: [{ mediaType: 'text/html', schema: { type: 'string' } }],
      },
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
      'scored session (a simulate session or a duel leg): an unknown or failed one, any other product, and anything that is no ' +
      'transaction hash, is a 404 certificate_not_found. ' +
      'EVM hashes are matched in any letter case. The same address serves coaching certificates: an id ' +
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
    description:
      `${PRIVACY} ${HTML_NOTE} ${LEDGER_NOTE} sessions counts every settled row; scored_sessions, passed_sessions, the best ` +
      `score per profile, its score_distribution and the ${RECENT_PASSES} latest passes read scored sessions only. The page draws each ` +
      "profile's score_distribution as a small SVG bar chart under its name. Read live from the ledger.",
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
      `${PRIVACY} ${LEDGER_NOTE} Settled rows in total and over the last 24 hours, 7 and 30 days; scored and passed sessions ` +
      'and the pass rate (scored sessions only); ' +
      'settled volume per network and asset in atomic units; distinct active wallets per window (counts only); the scoring ' +
      "queue's jobs by state (null when Redis does not answer within 1 s). Read live.",
    tags: ['public'],
    responses: {
      '200': { description: 'The statistics.', schema: statsSchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
];
