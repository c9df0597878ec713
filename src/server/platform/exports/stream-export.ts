import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { EXPORT_CONTENT_TYPES, type ExportFormat } from '../../../shared/api/exports.js';

/** A field of an exported row: an object stays one in a JSON line and is written as JSON in a CSV cell. */
export type ExportValue = string | number | boolean | null | Record<string, unknown>;

/** One column of an export: its CSV header, and the field's name in a JSON line. */
export interface ExportColumn<Row> {
  key: string;
  value(row: Row): ExportValue;
}

/** Rows read a page at a time; the next page starts after the last row of the one before. */
export type PageReader<Row> = (after: Row | undefined, limit: number) => Promise<Row[]>;

/** Rows a page holds: a few hundred kilobytes at most, whatever the export's length. */
export const EXPORT_PAGE_SIZE = 500;

/** Every row the reader has, one page in memory at a time. */
export async function* allRows<Row>(read: PageReader<Row>, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<Row> {
  let after: Row | undefined;
  for (;;) {
    const page = await read(after, pageSize);
    yield* page;
    if (page.length < pageSize) return;
    after = page.at(-1);
  }
}

// A spreadsheet runs a cell that starts with one of these as a formula: a value an attacker chose
// (a device name, a user agent) must stay text when an auditor opens the file.
const FORMULA_START = /^[=+\-@\t\r]/;
function asCell(value: ExportValue): string | number | boolean | null {
  const cell = value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
  return typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The rows as a stream of CSV (a header line first) or JSON Lines, read as the client takes it. */
export function exportStream<Row>(
  rows: AsyncIterable<Row>,
  format: ExportFormat,
  columns: readonly ExportColumn<Row>[],
): Readable {
  if (format === 'jsonl') {
    return Readable.from(
      (async function* () {
        for await (const row of rows)
          yield `${JSON.stringify(Object.fromEntries(columns.map((column) => [column.key, column.value(row)])))}\n`;
      })(),
    );
  }
  const csv = stringify({
    header: true,
    columns: columns.map((column) => column.key),
    record_delimiter: '\r\n',
  });
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) yield columns.map((column) => asCell(column.value(row)));
    })(),
  );
  // A failed read ends the file early: the client sees a broken download, never a short one read as whole.
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}

/** Sends an export as a download named `name` with its format's extension. */
export function sendExport(reply: FastifyReply, name: string, format: ExportFormat, body: Readable) {
  return reply
    .header('content-type', EXPORT_CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="${name}.${format}"`)
    .header('cache-control', 'private, no-store')
    .send(body);
}
