import { describe, expect, it } from 'vitest';
import { csvAmount, csvFilename, toCsv } from '../../src/renderer/src/components/data-table/csv';
import { collectRows, MAX_EXPORT_ROWS } from '../../src/renderer/src/components/data-table/export-csv-button';
import type { Paged } from '../../src/shared/api/paging';

interface Row {
  name: string;
  note: string | null;
  amount: number;
}
const columns = [
  { header: 'Name', value: (row: Row) => row.name },
  { header: 'Note', value: (row: Row) => row.note },
  { header: 'Amount', value: (row: Row) => row.amount },
];

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks (RFC 4180), leaves plain cells and ends lines with CRLF', () => {
    const csv = toCsv(columns, [
      { name: 'Ada, Countess', note: 'said "hi"', amount: 5 },
      { name: 'Line\nbreak', note: null, amount: -3 },
    ]);
    expect(csv).toBe('Name,Note,Amount\r\n"Ada, Countess","said ""hi""",5\r\n"Line\nbreak",,-3\r\n');
  });

  it('keeps a text cell a spreadsheet would run as a formula as text; numbers stay numbers', () => {
    const csv = toCsv(
      [{ header: 'Cell', value: (row: { cell: string }) => row.cell }],
      ['=HYPERLINK("x")', '+1 555', '@SUM(A1)', '-12.5', 'plain'].map((cell) => ({ cell })),
    );
    expect(csv.split('\r\n').slice(1, -1)).toEqual([
      `"'=HYPERLINK(""x"")"`,
      "'+1 555",
      "'@SUM(A1)",
      '-12.5',
      'plain',
    ]);
  });
});

describe('csvAmount and csvFilename', () => {
  it('writes minor units in the currency’s major unit', () => {
    expect(csvAmount(99_950, 'INR')).toBe('999.50');
    expect(csvAmount(1200, 'JPY')).toBe('1200');
    expect(csvAmount(7, 'XXX1')).toBe('0.07');
  });

  it('names the file after the list and the local date', () => {
    expect(csvFilename('users', new Date(2026, 0, 5, 23, 59))).toBe('users-2026-01-05.csv');
  });
});

describe('collectRows', () => {
  const pagedOf =
    (total: number) =>
    (page: number, perPage: number): Promise<Paged<number>> => {
      const start = (page - 1) * perPage;
      const data = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => start + i);
      return Promise.resolve({ data, total, page, perPage });
    };

  it('reads every page of the filtered list, in order, once', async () => {
    const asked: number[] = [];
    const { rows, total } = await collectRows((page, perPage) => {
      asked.push(page);
      return pagedOf(250)(page, perPage);
    });
    expect(total).toBe(250);
    expect(rows).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(asked).toEqual([1, 2, 3]);
  });

  it('stops at the export limit and says how many there were', async () => {
    const { rows, total } = await collectRows(pagedOf(MAX_EXPORT_ROWS + 150));
    expect(rows).toHaveLength(MAX_EXPORT_ROWS);
    expect(total).toBe(MAX_EXPORT_ROWS + 150);
  });

  it('an empty list is the headers only', async () => {
    expect((await collectRows(pagedOf(0))).rows).toEqual([]);
  });
});
