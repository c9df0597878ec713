import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Invoice } from '../../../../../shared/api/invoices';
import { StatusBadge } from '../../../components/data/status-badge';
import { failureMessage } from '../../../lib/api-errors';
import { billingMessages, useDownloadInvoicePdfMutation } from '../invoices-endpoints';
import { InvoiceDetailsButton } from './invoice-details';
import {
  describeTax,
  formatIssueDate,
  formatMinorAmount,
  INVOICE_KIND_LABELS,
  invoiceDownloadLabel,
} from './invoice-format';

const COLUMNS: readonly { key: string; label: MessageDescriptor }[] = [
  { key: 'number', label: msg`Number` },
  { key: 'date', label: msg`Date` },
  { key: 'type', label: msg`Type` },
  { key: 'tax', label: msg`Tax` },
  { key: 'total', label: msg`Total` },
  { key: 'documents', label: msg`Documents` },
];
const TABLE_MIN_WIDTH = 760;

function KindBadge({ invoice }: { invoice: Invoice }) {
  const { i18n } = useLingui();
  // A dot badge: the words keep the body colour, readable in both schemes (see StatusBadge).
  return (
    <StatusBadge tone={invoice.kind === 'credit_note' ? 'caution' : 'info'} size="md">
      {i18n._(INVOICE_KIND_LABELS[invoice.kind])}
    </StatusBadge>
  );
}

/** Downloads the invoice's PDF (its name starts with the visible text, as speech input expects) with the session's token; a failure is told in a notification. */
function DownloadButton({ invoice }: { invoice: Invoice }) {
  const { t } = useLingui();
  const [download] = useDownloadInvoicePdfMutation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await download({ id: invoice.id, number: invoice.number }).unwrap();
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`Could not download the PDF`,
        message: failureMessage(error, billingMessages.downloadFailed),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="light"
      size="compact-sm"
      loading={busy}
      onClick={() => void run()}
      aria-label={invoiceDownloadLabel(invoice)}
    >
      <Trans>Download PDF</Trans>
    </Button>
  );
}

const amount = (invoice: Invoice, value: number) => formatMinorAmount(value, invoice.currency);

/** What an invoice offers: its itemised details, and its PDF. */
function Actions({ invoice, organisationLinks }: { invoice: Invoice; organisationLinks: boolean }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <InvoiceDetailsButton invoice={invoice} organisationLink={organisationLinks} />
      <DownloadButton invoice={invoice} />
    </Group>
  );
}

/** "Corrects INV-1" and "Billed to Acme" under an invoice's number, when they apply. */
function InvoiceNotes({ invoice }: { invoice: Invoice }) {
  const corrected = invoice.corrects?.number;
  const organisation = invoice.organisation?.name;
  return (
    <>
      {corrected ? (
        <Text size="xs" c="dimmed">
          <Trans>Corrects {corrected}</Trans>
        </Text>
      ) : null}
      {organisation ? (
        <Text size="xs" c="dimmed">
          <Trans>Billed to {organisation}</Trans>
        </Text>
      ) : null}
    </>
  );
}

function InvoiceRow({ invoice, organisationLinks }: { invoice: Invoice; organisationLinks: boolean }) {
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        <Text size="sm" fw={600} ff="monospace">
          {invoice.number}
        </Text>
        <InvoiceNotes invoice={invoice} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatIssueDate(invoice.issued_at)}</Table.Td>
      <Table.Td>
        <KindBadge invoice={invoice} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        <Text size="sm">{amount(invoice, invoice.tax)}</Text>
        <Text size="xs" c="dimmed">
          {describeTax(invoice)}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        <Text size="sm" fw={600}>
          {amount(invoice, invoice.total)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Actions invoice={invoice} organisationLinks={organisationLinks} />
      </Table.Td>
    </Table.Tr>
  );
}

function InvoiceCard({ invoice, organisationLinks }: { invoice: Invoice; organisationLinks: boolean }) {
  return (
    <Card withBorder padding="sm" radius="md" component="li">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="baseline">
          <Text fw={600} size="sm" ff="monospace">
            {invoice.number}
          </Text>
          <Text fw={600} size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {amount(invoice, invoice.total)}
          </Text>
        </Group>
        <Group gap="xs">
          <KindBadge invoice={invoice} />
          <Text size="xs" c="dimmed">
            {formatIssueDate(invoice.issued_at)} · {describeTax(invoice)}
          </Text>
        </Group>
        <InvoiceNotes invoice={invoice} />
        <Actions invoice={invoice} organisationLinks={organisationLinks} />
      </Stack>
    </Card>
  );
}

/**
 * Invoices and credit notes with their itemised details and PDF: a table, or one card each on a
 * phone (or always, in `cards` layout, for a narrow place such as a drawer). `invoices` is null
 * while they load. `organisationLinks` points an organisation's invoices to its page (the
 * customer's own list; administrators reach organisations from their own screens).
 */
export function InvoiceTable({
  invoices,
  label,
  busy,
  layout = 'auto',
  organisationLinks = false,
}: {
  invoices: Invoice[] | null;
  label: string;
  busy?: boolean;
  layout?: 'auto' | 'cards';
  organisationLinks?: boolean;
}) {
  const { i18n } = useLingui();
  const phone = useMediaQuery('(max-width: 36em)');
  if ((phone || layout === 'cards') && invoices) {
    return (
      <Stack
        component="ul"
        gap="sm"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label={label}
        aria-busy={busy}
      >
        {invoices.map((invoice) => (
          <InvoiceCard key={invoice.id} invoice={invoice} organisationLinks={organisationLinks} />
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} type="native">
      <Table verticalSpacing="sm" highlightOnHover aria-busy={invoices === null || busy} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => (
              <Table.Th key={column.key} scope="col">
                {i18n._(column.label)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoices
            ? invoices.map((invoice) => (
                <InvoiceRow key={invoice.id} invoice={invoice} organisationLinks={organisationLinks} />
              ))
            : Array.from({ length: 3 }, (_, row) => (
                <Table.Tr key={row} aria-hidden="true">
                  {COLUMNS.map((column) => (
                    <Table.Td key={column.key}>
                      <Skeleton height={14} width={column.key === 'number' ? 110 : 70} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
