import { Trans } from '@lingui/react/macro';
import { Button, Table, VisuallyHidden } from '@mantine/core';
import { useId, useState } from 'react';
import { formatNumber } from '../license-format';
import type { UsagePoint } from '../usage-history';

/**
 * The chart's numbers as a table, behind a button: for keyboards and screen readers, and for anyone
 * who wants the exact figure of a day. Days without use are left out; the total closes the table.
 */
export function UsageDayTable({
  caption,
  points,
  seriesKey,
  unit,
}: {
  caption: string;
  points: readonly UsagePoint[];
  seriesKey: string;
  unit: string;
}) {
  const [open, setOpen] = useState(false);
  const tableId = useId();
  const used = points.filter((point) => Number(point[seriesKey] ?? 0) > 0);
  const total = used.reduce((sum, point) => sum + Number(point[seriesKey]), 0);
  // Before any use the chart says so already: there are no numbers to show.
  if (used.length === 0) return null;
  return (
    <div>
      <Button
        variant="subtle"
        size="compact-sm"
        px={0}
        aria-expanded={open}
        aria-controls={open ? tableId : undefined}
        onClick={() => setOpen((shown) => !shown)}
      >
        {open ? <Trans>Hide daily numbers</Trans> : <Trans>Show daily numbers</Trans>}
      </Button>
      {open ? (
        <Table.ScrollContainer minWidth={240} mt="xs">
          <Table id={tableId} striped withTableBorder fz="sm">
            {/* The chart above shows the same caption on screen. */}
            <VisuallyHidden component="caption">{caption}</VisuallyHidden>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">
                  <Trans>Day</Trans>
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  <Trans>Used ({unit})</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {used.map((point) => (
                <Table.Tr key={point.day}>
                  <Table.Th scope="row" fw={400}>
                    {point.day}
                  </Table.Th>
                  <Table.Td ta="right">{formatNumber(Number(point[seriesKey]))}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th scope="row">
                  <Trans>Total</Trans>
                </Table.Th>
                <Table.Th ta="right">{formatNumber(total)}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </div>
  );
}
