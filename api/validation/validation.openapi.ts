import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES } from '../http/responses.schema';
import { VALIDATION_CACHE_SECONDS } from './validation.routes';

const figureSchema = {
  type: 'object',
  required: ['metric', 'dataset', 'n', 'value', 'target', 'pass'],
  properties: {
    metric: { type: 'string', description: 'What is measured, e.g. "Spearman empathy, wassa23 held out (fit on the rest)".' },
    dataset: { type: 'string', description: 'The data and slice it was measured on.' },
    n: { type: 'integer', minimum: 0 },
    value: { type: ['number', 'null'], description: 'The figure (3 decimals); null where the development data cannot give one.' },
    target: { type: ['string', 'null'], description: 'The bar, e.g. ">= 0.35"; null for an informational figure.' },
    pass: { type: ['boolean', 'null'], description: 'Whether the bar is met; null for an informational figure.' },
  },
};

const figuresSchema = { type: 'array', items: figureSchema };

/** Schema of GET /api/validation.json. */
export const publicValidationSchema = {
  type: 'object',
  required: ['scorer_version', 'current', 'command', 'how_to_reproduce', 'human_agreement', 'bars_met', 'bars', 'dimensions'],
  properties: {
    scorer_version: { type: 'string', description: 'The scorer that printed the figures (engine version + data hash).' },
    current: { type: 'boolean', description: 'Whether that is the scorer this service runs.' },
    command: { type: 'string', description: 'The command that prints every figure: npm run eval.' },
    how_to_reproduce: { type: 'string' },
    human_agreement: { type: 'string', description: "Path of the live agreement table of the program's human raters." },
    bars_met: { type: 'integer', minimum: 0 },
    bars: { type: 'integer', minimum: 0 },
    dimensions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['dimension', 'data', 'out_of_domain', 'in_domain'],
        properties: {
          dimension: { type: 'string', description: 'human_likeness, formality, empathy, directness, hesitation, language or advice.' },
          data: {
            type: 'array',
            description: 'The development data folders the figures came from, each with the title of its SOURCE.md (origin and licence).',
            items: { type: 'object', required: ['folder', 'title'], properties: { folder: { type: 'string' }, title: { type: 'string' } } },
          },
          out_of_domain: { ...figuresSchema, description: 'Figures on a source, genre or generator the fit did not use: the bars are judged here.' },
          in_domain: { ...figuresSchema, description: 'Figures on held-back parts of fitted sources, for comparison.' },
        },
      },
    },
  },
};

const CACHE = { 'Cache-Control': { description: `public, max-age=${VALIDATION_CACHE_SECONDS}`, schema: { type: 'string' } } };
const GENERATED =
  'Generated from the output of `npm run eval` (shared/validation/eval-figures.json, rewritten by every run), never written by hand: ' +
  "each dimension's out-of-domain figures (every rated source held out in turn, genres and generators left out), the in-domain ones " +
  'beside them, the development data each came from and the command that reproduces them. How far the program\'s human raters agree ' +
  'with each other and with the engine is read live at GET /api/validation/human-agreement.';

/** OpenAPI specs of the validation page and its JSON twin. */
export const validationOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/validation',
    operationId: 'getValidationPage',
    summary: "The published validation page (text/html): each dimension's out-of-domain figures, their data and the command.",
    description: `${GENERATED} An HTML page (inline CSS, no script); the same content as JSON is GET /api/validation.json.`,
    tags: ['public'],
    responses: {
      '200': { description: 'The page.', mediaType: 'text/html', schema: { type: 'string' }, headers: CACHE },
      '500': COMMON_RESPONSES['500'],
    },
  },
  {
    method: 'get',
    path: '/api/validation.json',
    operationId: 'getValidation',
    summary: 'The validation page as JSON: every figure of the last npm run eval, by dimension.',
    description: GENERATED,
    tags: ['public'],
    responses: { '200': { description: 'The figures.', schema: publicValidationSchema, headers: CACHE }, '500': COMMON_RESPONSES['500'] },
  },
];
