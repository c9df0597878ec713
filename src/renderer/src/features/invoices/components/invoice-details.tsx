import { Anchor, Button, Divider, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Invoice } from '../../../../../shared/api/invoices';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { QuoteRow } from '../../../components/data/quote-row';
import { formatIssueDate, formatMinorAmount, formatServicePeriod, taxLineLabel } from './invoice-format';

const numeric = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

/** The lines as a table; on a phone one block per line, so nothing scrolls sideways. */
function Lines({ invoice, phone }: { invoice: Invoice; phone: boolean }) {
  const money = (value: number) => formatMinorAmount(value, invoice.currency);
  const caption = invoice.lines_include_tax ? 'Amounts include tax' : 'Amounts before tax';
  if (phone)
    return (
      <Stack
        component="ul"
        gap="xs"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label={`Lines. ${caption}`}
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
          <Table.Th scope="col">Description</Table.Th>
          <Table.Th scope="col" ta="right">
            Qty
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Unit price
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Amount
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
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const money = (value: number) => formatMinorAmount(value, invoice.currency);
  const buyer = invoice.buyer.name ?? invoice.buyer.email ?? 'Customer';
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text size="sm">
          <Text span c="dimmed">
            Billed to{' '}
          </Text>
          <Text span fw={600}>
            {buyer}
          </Text>
          {invoice.buyer.tax_id
            ? ` · ${invoice.tax_treatment === 'eu_reverse_charge' ? 'VAT number ' : ''}${invoice.buyer.tax_id}`
            : ''}
        </Text>
        {invoice.organisation ? (
          <Text size="xs" c="dimmed">
            {invoice.buyer.address.length === 0
              ? `${invoice.organisation.name} had no billing details when this was issued. `
              : `Billed to the organization ${invoice.organisation.name}. `}
            {organisationLink ? (
              <Anchor
                component={Link}
                to={pathWith(portalPaths.organisationDetail, { organisationId: invoice.organisation.id })}
                size="xs"
                // Underlined: in a line of text the link is told apart by more than its colour.
                underline="always"
              >
                Manage its billing details
              </Anchor>
            ) : null}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          Issued {formatIssueDate(invoice.issued_at)}
          {invoice.service_period ? ` · Service period ${formatServicePeriod(invoice.service_period)}` : ''}
        </Text>
        {invoice.place_of_supply || invoice.payment_reference ? (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {[
              invoice.place_of_supply ? `Place of supply ${invoice.place_of_supply}` : null,
              invoice.payment_reference ? `Payment reference ${invoice.payment_reference}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        ) : null}
      </Stack>
      <Lines invoice={invoice} phone={phone} />
      <Divider />
      <Stack component="dl" gap={6} m={0}>
        <QuoteRow label="Taxable value">{money(invoice.subtotal)}</QuoteRow>
        {invoice.taxes.map((tax) => (
          <QuoteRow key={tax.name} label={taxLineLabel(tax, invoice.lines_include_tax)}>
            {money(tax.amount)}
          </QuoteRow>
        ))}
        <QuoteRow label={invoice.kind === 'credit_note' ? 'Total credited' : 'Total'} strong>
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
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        onClick={() => setOpened(true)}
        aria-label={`Details of ${invoice.title.toLowerCase()} ${invoice.number}`}
      >
        Details
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`${invoice.title} ${invoice.number}`}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <InvoiceDetails invoice={invoice} organisationLink={organisationLink} />
      </Modal>
    </>
  );
}
