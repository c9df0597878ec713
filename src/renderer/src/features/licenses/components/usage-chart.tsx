import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Skeleton, Text, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { formatNumber } from '../license-format';
import { usageSummary } from '../usage-history';
import type { UsageBarChartProps } from './usage-bar-chart';

// The charts library is the heaviest part of the license screens: it loads with the first chart.
const UsageBarChart = lazy(() => import('./usage-bar-chart'));

/** Colours of the chart series, in order; shade 6 reads on white and on the dark card. */
export const SERIES_COLORS = ['iris.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.6', 'pink.6'];

export interface UsageChartProps extends UsageBarChartProps {
  /** What the chart shows (its caption and accessible name). */
  caption: string;
  /** Show the caption on screen (otherwise it is for screen readers only). */
  showCaption?: boolean;
}

/** A usage chart in a figure, with a text summary of every series for those who cannot see it. */
export function UsageChart({ caption, showCaption = false, ...chart }: UsageChartProps) {
  const { t } = useLingui();
  const totals = chart.series.map((series) => ({ series, ...usageSummary(chart.data, series.name) }));
  // Nothing used in the whole period: words, not a frame of empty bars.
  const unused = totals.every(({ peak }) => !peak);
  const summary = totals
    .map(({ series, total, peak }) => {
      const label = series.label;
      if (!peak) return t`${label}: no use.`;
      const sum = formatNumber(total);
      const day = peak.day;
      const most = formatNumber(Number(peak[series.name]));
      const unit = chart.unit;
      return unit
        ? t`${label}: ${sum} ${unit} in total, most on ${day} (${most}).`
        : t`${label}: ${sum} in total, most on ${day} (${most}).`;
    })
    .join(' ');
  const height = chart.height ?? 220;
  return (
    <figure style={{ margin: 0 }} aria-label={caption}>
      {showCaption ? (
        <Text component="figcaption" size="sm" fw={600} mb="xs">
          {caption}
        </Text>
      ) : (
        <VisuallyHidden component="figcaption">{caption}</VisuallyHidden>
      )}
      {unused ? (
        <Center
          mih={Math.min(height, 120)}
          p="md"
          style={{
            border: '1px dashed var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-md)',
          }}
        >
          <Text size="sm" c="dimmed" ta="center">
            <Trans>No usage yet in this period. It shows here once the desktop app is used.</Trans>
          </Text>
        </Center>
      ) : (
        <Suspense fallback={<Skeleton height={height} radius="md" />}>
          <UsageBarChart {...chart} />
        </Suspense>
      )}
      <VisuallyHidden>
        <p data-testid="usage-chart-summary">{summary}</p>
      </VisuallyHidden>
    </figure>
  );
}
