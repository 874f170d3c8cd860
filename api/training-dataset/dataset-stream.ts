import { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { TRAINING_EXPORT_ROWS, type LedgerPosition, type TrainingExportManifest } from '../../jobs';

/** The record format's name and version, in every export's manifest line. */
export const DATASET_FORMAT = 'humanlike.training-dataset.v1';

/** Rows read per keyset page: the most the web holds of one export at a time. */
export const DATASET_PAGE_ROWS = 100;

// Before every real position: PostgreSQL's -infinity sorts first, the nil uuid before any id.
const START: LedgerPosition = { settled_at: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

interface LedgerRow {
  id: string;
  settled_at: string;
  product: string;
  tier: string | null;
  profile: string | null;
  score: number | null;
  passed: boolean | null;
  persona_targets: Record<string, { target: number; tolerance: number }> | null;
  measured_dimensions: Record<string, number> | null;
  text: string | null;
  text_stored: boolean;
}

/** One `session` line of the export (see the README and the OpenAPI text for the format). */
export function sessionRecord(row: LedgerRow, index: number): Record<string, unknown> {
  const gaps =
    row.persona_targets && row.measured_dimensions
      ? Object.fromEntries(
          Object.entries(row.persona_targets)
            .filter(([dim]) => row.measured_dimensions![dim] !== undefined)
            .map(([dim, t]) => [dim, Math.round((row.measured_dimensions![dim] - t.target) * 1e6) / 1e6]),
        )
      : null;
  return {
    record_type: 'session',
    index,
    session_id: row.id,
    settled_at: row.settled_at,
    product: row.product,
    tier: row.tier,
    profile: row.profile,
    metrics: { eq_score: row.score, passed: row.passed },
    persona_targets: row.persona_targets,
    measured: row.measured_dimensions,
    gaps,
    text: row.text,
    text_stored: row.text_stored,
  };
}

/** The parts of an export, in order: its manifest, pages of session records, and the count sent. */
type ExportPart = { kind: 'manifest'; header: Record<string, unknown> } | { kind: 'page'; records: Array<Record<string, unknown>> } | { kind: 'end'; records: number };

async function* parts(ds: DataSource, wallet: string, manifest: TrainingExportManifest, header: Record<string, unknown>, includeText: boolean): AsyncGenerator<ExportPart> {
  yield { kind: 'manifest', header };
  const mark = manifest.high_water_mark;
  let sent = 0;
  let after = START;
  while (mark && sent < manifest.records) {
    // Keyset pages up to the mark fixed at payment: no transaction or cursor stays open between
    // pages, and a replay reads the same rows (later sessions sort after the mark).
    const page = (await ds.query(
      `SELECT id, settled_at::text AS settled_at, product, tier, profile, score, passed, persona_targets, measured_dimensions,
              CASE WHEN $7 THEN training_text END AS text, training_text IS NOT NULL AS text_stored
         FROM ledger_sessions
        WHERE ${TRAINING_EXPORT_ROWS}
          AND (settled_at, id) > ($2::timestamptz, $3::uuid) AND (settled_at, id) <= ($4::timestamptz, $5::uuid)
        ORDER BY settled_at, id LIMIT $6`,
      [wallet, after.settled_at, after.id, mark.settled_at, mark.id, Math.min(DATASET_PAGE_ROWS, manifest.records - sent), includeText],
    )) as LedgerRow[];
    if (page.length === 0) break;
    yield { kind: 'page', records: page.map((row) => sessionRecord(row, sent++)) };
    const last = page[page.length - 1];
    after = { settled_at: last.settled_at, id: last.id };
  }
  yield { kind: 'end', records: sent };
}

async function* jsonLines(source: AsyncGenerator<ExportPart>): AsyncGenerator<string> {
  for await (const part of source) {
    if (part.kind === 'manifest') yield `${JSON.stringify({ record_type: 'manifest', ...part.header })}\n`;
    else if (part.kind === 'page') yield part.records.map((r) => `${JSON.stringify(r)}\n`).join('');
    else yield `${JSON.stringify({ record_type: 'end', records: part.records })}\n`;
  }
}

// One JSON document written as it is read: the manifest's members, then `sessions`. A document cut
// short does not parse, so it needs no end marker.
async function* jsonDocument(source: AsyncGenerator<ExportPart>): AsyncGenerator<string> {
  let first = true;
  for await (const part of source) {
    if (part.kind === 'manifest') {
      const head = JSON.stringify(part.header);
      yield `${head.slice(0, -1)}${head === '{}' ? '' : ','}"sessions":[`;
    } else if (part.kind === 'page') {
      yield (first ? '' : ',') + part.records.map((r) => JSON.stringify(r)).join(',');
      first = false;
    } else {
      yield ']}\n';
    }
  }
}

/** How an export is delivered: one JSON document (the default) or JSON Lines. */
export type DatasetFormat = 'json' | 'jsonl';

/**
 * The export as a stream, read page by page as the client takes it, so memory stays flat whatever
 * the history's size. JSON Lines: the manifest line (the paid response's members), one `session`
 * line per ledger row up to the high-water mark, in ledger order, then an `end` line with the
 * count (a missing `end` line means the stream was cut). JSON: one object, the manifest's members
 * plus `sessions`, the same session records in the same order.
 * @param ds - DataSource
 * @param wallet - the wallet as the ledger stores it
 * @param manifest - the record count and high-water mark fixed at payment
 * @param header - the members of the manifest (the delivered body)
 * @param includeText - whether to put the stored texts in the records
 * @param format - JSON (default) or JSON Lines
 * @returns the stream
 */
export function datasetStream(ds: DataSource, wallet: string, manifest: TrainingExportManifest, header: Record<string, unknown>, includeText: boolean, format: DatasetFormat = 'jsonl'): Readable {
  const source = parts(ds, wallet, manifest, header, includeText);
  return Readable.from(format === 'json' ? jsonDocument(source) : jsonLines(source), { objectMode: false, highWaterMark: 64 * 1024 });
}
