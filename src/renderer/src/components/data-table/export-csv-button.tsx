import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { useState } from 'react';
import type { Paged } from '../../../../shared/api/paging';
import { numberFormat } from '../../lib/number-format';
import { DownloadIcon } from '../brand/icons';
import { showToast } from '../data/toast';
import { toSubmitFailure } from '../forms/submit-failure';
import { csvFilename, type CsvColumn, downloadCsv, toCsv } from './csv';

/** The largest page a list route answers. */
const PAGE_SIZE = 100;
/** Rows in one export at most: beyond it, narrow the list with its filters first. */
export const MAX_EXPORT_ROWS = 10_000;

/** What a list screen gives to export the rows its search and filters select, not only the page shown. */
export interface ListCsv<Row> {
  /** The file's name before its date ("users" → users-2026-12-03.csv). */
  name: string;
  columns: readonly CsvColumn<Row>[];
  /** One page of the filtered list, as the screen's own list call reads it. */
  fetchPage: (page: number, perPage: number) => Promise<Paged<Row>>;
}

/** Reads every page of the filtered list (up to {@link MAX_EXPORT_ROWS}) in order. */
export async function collectRows<Row>(
  fetchPage: ListCsv<Row>['fetchPage'],
): Promise<{ rows: Row[]; total: number }> {
  const rows: Row[] = [];
  let total = 0;
  for (let page = 1; rows.length < MAX_EXPORT_ROWS; page += 1) {
    const answer = await fetchPage(page, PAGE_SIZE);
    total = answer.total;
    rows.push(...answer.data);
    if (answer.data.length < PAGE_SIZE || rows.length >= total) break;
  }
  return { rows: rows.slice(0, MAX_EXPORT_ROWS), total };
}

/** "Export CSV": the rows the list's search and filters select, every page of them, as a CSV file. */
export function ExportCsvButton<Row>({ csv, noun }: { csv: ListCsv<Row>; noun: string }) {
  const [busy, setBusy] = useState(false);
  const { t } = useLingui();
  const run = async () => {
    setBusy(true);
    try {
      const { rows, total } = await collectRows(csv.fetchPage);
      downloadCsv(csvFilename(csv.name), toCsv(csv.columns, rows));
      const count = numberFormat().format(rows.length);
      const all = numberFormat().format(total);
      const written = rows.length;
      showToast({
        title: t`CSV exported`,
        message:
          total > rows.length
            ? t`The first ${count} of ${all} ${noun}: narrow the list to export the rest.`
            : plural(written, {
                one: `# row of ${noun} in the file.`,
                other: `# rows of ${noun} in the file.`,
              }),
      });
    } catch (error) {
      showToast({
        tone: 'error',
        title: t`Could not export the list`,
        message: toSubmitFailure(error, t`The list could not be read. Try again.`).message,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<DownloadIcon size={16} />}
      onClick={() => void run()}
      loading={busy}
    >
      <Trans>Export CSV</Trans>
    </Button>
  );
}
