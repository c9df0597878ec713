import { Group, Paper, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { type ReactNode, Suspense, useId } from 'react';

export interface ChartTable {
  /** Column headings: the first names the rows (e.g. "Day"), the others the values. */
  headers: readonly string[];
  rows: ReadonlyArray<readonly string[]>;
}

export interface ChartPanelProps {
  /** The panel's heading (h2) and the chart's accessible name. */
  title: string;
  /** One sentence saying what the chart shows; on screen for everyone, read first by screen readers. */
  summary: string;
  /** The chart's numbers as a table, for screen readers (the chart itself is a picture). */
  table: ChartTable;
  /** Controls beside the title (e.g. the period switch). */
  actions?: ReactNode;
  /** Height the chart takes, for its loading skeleton. */
  height: number;
  /** Shown under the chart (links to the full list). */
  footer?: ReactNode;
  children: ReactNode;
}

/**
 * A dashboard chart in a titled section: the summary line, the chart (its library loads lazily,
 * with a skeleton meanwhile) and the same numbers as a visually hidden table.
 */
export function ChartPanel({ title, summary, table, actions, height, footer, children }: ChartPanelProps) {
  const titleId = useId();
  const summaryId = useId();
  return (
    <Paper
      withBorder
      p="lg"
      component="section"
      aria-labelledby={titleId}
      aria-describedby={summaryId}
      h="100%"
    >
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Title order={2} size="h4" id={titleId}>
            {title}
          </Title>
          {actions}
        </Group>
        <Text size="sm" c="dimmed" id={summaryId}>
          {summary}
        </Text>
        <Suspense fallback={<Skeleton height={height} radius="md" />}>{children}</Suspense>
        <VisuallyHidden>
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                {table.headers.map((header) => (
                  <th key={header} scope="col">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr key={row[0]}>
                  {row.map((cell, index) =>
                    index === 0 ? (
                      <th key={index} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={index}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </VisuallyHidden>
        {footer}
      </Stack>
    </Paper>
  );
}
