import '@mantine/charts/styles.layer.css';
import { useLingui } from '@lingui/react/macro';
import { BarsList } from '@mantine/charts';
import { numberFormat } from '../../lib/number-format';

export interface SeverityBarsProps {
  data: Array<{ name: string; value: number; color: string }>;
}

/**
 * A category with no count draws no bar: its name stands on the panel in the body colour, where a
 * filled bar of the minimum width would read as some events.
 */
const emptyBar = { backgroundColor: 'transparent', color: 'var(--mantine-color-text)' };

/** Counts per category as labelled horizontal bars (name in the bar, count beside it). */
export default function SeverityBars({ data }: SeverityBarsProps) {
  const { t } = useLingui();
  // The panel's table says the same to screen readers; the bars are for the eye.
  return (
    <div aria-hidden="true">
      <BarsList
        data={data.map((item) => ({ ...item, variant: 'filled' as const }))}
        barsLabel={t`Severity`}
        valueLabel={t`Events`}
        minBarSize={96}
        autoContrast
        getBarProps={(item) => (item.value === 0 ? { style: emptyBar, 'data-empty': true } : {})}
        valueFormatter={(value) => numberFormat().format(value)}
      />
    </div>
  );
}
