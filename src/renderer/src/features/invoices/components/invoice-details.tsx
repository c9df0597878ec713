import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Divider, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Invoice } from '../../../../../shared/api/invoices';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { QuoteRow } from '../../../components/data/quote-row';
import {
  formatIssueDate,
  formatMinorAmount,
  formatServicePeriod,
  invoiceDetailsLabel,
  invoiceTitle,
  taxLineLabel,
} from './invoice-format';

const numeric = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

/** The lines as a table; on a phone one block per line, so nothing scrolls sideways. */
function Lines({ invoice, phone }: { invoice: Invoice; phone: boolean }) {
  const { t } = useLingui();
  const money = (value: number) => formatMinorAmount(value, invoice.currency);
  const caption = invoice.lines_include_tax ? t`Amounts include tax` : t`Amounts before tax`;
  if (phone)
    return (
      <Stack
        component="ul"
        gap="xs"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label={t`Lines. ${caption}`}
      >
        {invoice.lines.map((line, index) => (
          <li key={index}>
            <Text size="sm">{line.description}</Text>
            <Group justify="space-between" wrap="nowrap">
              <Text size="xs" c="dimmed" style={numeric}>
                {line.quantity} × {money(line.unit_amount)}
              </Text>
              <Text size="sm" fw={500} style={numeric}>
                {money(line.amount)}
              </Text>
            </Group>
          </li>
        ))}
      </Stack>
    );
  return (
    <Table verticalSpacing="xs" captionSide="bottom">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">
            <Trans>Description</Trans>
          </Table.Th>
          <Table.Th scope="col" ta="right">
            <Trans>Qty</Trans>
          </Table.Th>
          <Table.Th scope="col" ta="right">
            <Trans>Unit price</Trans>
          </Table.Th>
          <Table.Th scope="col" ta="right">
            <Trans>Amount</Trans>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {invoice.lines.map((line, index) => (
          <Table.Tr key={index}>
            <Table.Td>{line.description}</Table.Td>
            <Table.Td ta="right" style={numeric}>
              {line.quantity}
            </Table.Td>
            <Table.Td ta="right" style={numeric}>
              {money(line.unit_amount)}
            </Table.Td>
            <Table.Td ta="right" style={numeric}>
              {money(line.amount)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * An invoice as its PDF itemises it: who was billed, the lines (list price × seats, the coupon,
 * credit taken off), the taxable value, the tax by kind and the total, the service period and the
 * payment reference. `organisationLink` points an organisation's invoice to the organisation's
 * page, where its billing details are managed (the customer's screens; administrators have theirs).
 */
export function InvoiceDetails({
  invoice,
  organisationLink,
}: {
  invoice: Invoice;
  organisationLink: boolean;
}) {
  const { t } = useLingui();
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const money = (value: number) => formatMinorAmount(value, invoice.currency);
  const buyer = invoice.buyer.name ?? invoice.buyer.email ?? t`Customer`;
  const taxId = invoice.buyer.tax_id;
  const organisation = invoice.organisation?.name;
  const issued = formatIssueDate(invoice.issued_at);
  const period = invoice.service_period ? formatServicePeriod(invoice.service_period) : null;
  const place = invoice.place_of_supply;
  const reference = invoice.payment_reference;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text size="sm">
          <Text span c="dimmed">
            <Trans>Billed to</Trans>{' '}
          </Text>
          <Text span fw={600}>
            {buyer}
          </Text>
          {taxId
            ? ` · ${invoice.tax_treatment === 'eu_reverse_charge' ? t`VAT number ${taxId}` : taxId}`
            : ''}
        </Text>
        {invoice.organisation ? (
          <Text size="xs" c="dimmed">
            {invoice.buyer.address.length === 0
              ? t`${organisation} had no billing details when this was issued.`
              : t`Billed to the organization ${organisation}.`}{' '}
            {organisationLink ? (
              <Anchor
                component={Link}
                to={pathWith(portalPaths.organisationDetail, { organisationId: invoice.organisation.id })}
                size="xs"
                // Underlined: in a line of text the link is told apart by more than its colour.
                underline="always"
              >
                <Trans>Manage its billing details</Trans>
              </Anchor>
            ) : null}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {period ? t`Issued ${issued} · Service period ${period}` : t`Issued ${issued}`}
        </Text>
        {invoice.place_of_supply || invoice.payment_reference ? (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {[
              place ? t`Place of supply ${place}` : null,
              reference ? t`Payment reference ${reference}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        ) : null}
      </Stack>
      <Lines invoice={invoice} phone={phone} />
      <Divider />
      <Stack component="dl" gap={6} m={0}>
        <QuoteRow label={t`Taxable value`}>{money(invoice.subtotal)}</QuoteRow>
        {invoice.taxes.map((tax) => (
          <QuoteRow key={tax.name} label={taxLineLabel(tax, invoice.lines_include_tax)}>
            {money(tax.amount)}
          </QuoteRow>
        ))}
        <QuoteRow label={invoice.kind === 'credit_note' ? t`Total credited` : t`Total`} strong>
          {money(invoice.total)}
        </QuoteRow>
      </Stack>
      {/* How the sale was taxed, as recorded at issue: an export's LUT note, the reverse charge. */}
      {invoice.tax_notes.length > 0 ? (
        <Stack gap={2} data-testid="tax-notes">
          {invoice.tax_notes.map((note) => (
            <Text key={note} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {note}
            </Text>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}

/** "Details" opens the itemised invoice in a dialog (keyboard: Escape closes, focus returns). */
export function InvoiceDetailsButton({
  invoice,
  organisationLink,
}: {
  invoice: Invoice;
  organisationLink: boolean;
}) {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        onClick={() => setOpened(true)}
        aria-label={invoiceDetailsLabel(invoice)}
      >
        <Trans>Details</Trans>
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`${invoiceTitle(invoice)} ${invoice.number}`}
        size="lg"
        closeButtonProps={{ 'aria-label': t`Close` }}
      >
        <InvoiceDetails invoice={invoice} organisationLink={organisationLink} />
      </Modal>
    </>
  );
}
