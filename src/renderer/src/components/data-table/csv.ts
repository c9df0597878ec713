/** One column of a list's CSV: its header and the cell of a row (plain text or a number). */
export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

// A cell a spreadsheet would run as a formula ("=HYPERLINK(…)", "+1", "@SUM"): kept as text with a
// leading apostrophe (OWASP's advice for CSV injection). Numbers, negative ones included, stay numbers.
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  // RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows as RFC 4180 CSV (CRLF line ends), headers first. */
export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => cell(column.header))];
  for (const row of rows) lines.push(columns.map((column) => cell(column.value(row))));
  return `${lines.map((line) => line.join(',')).join('\r\n')}\r\n`;
}

/** Saves the text as a file: UTF-8 with a byte-order mark, so spreadsheets read ₹ and names right. */
export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "users-2026-12-03.csv": the list's name and the local date it was exported. */
export function csvFilename(name: string, now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${name}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

/** 99950 paise → "999.50": an amount as a spreadsheet sums it, in the currency's major unit. */
export function csvAmount(minor: number, currency: string): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
  } catch {
    // An unknown code: two digits, as most currencies have.
  }
  return (minor / 10 ** digits).toFixed(digits);
}
