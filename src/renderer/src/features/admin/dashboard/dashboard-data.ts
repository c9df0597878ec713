import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { DashboardStats, SecuritySeverityName } from '../../../../../shared/api/admin';
import { LICENSE_STATUSES, type LicenseStatus } from '../../../../../shared/api/licenses';
import { SECURITY_SEVERITIES } from '../../../../../shared/api/admin';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';
import { numberFormat } from '../../../lib/number-format';
import { formatPlanPrice } from '../../plans';

/** What the admin overview's charts and cards show, worked out from `GET /admin/dashboard`. */

type RevenueTotal = DashboardStats['revenue']['totals'][number];
type RevenuePeriod = DashboardStats['revenue']['by_day'][number];
export type RevenueRange = 'days' | 'months';

/** A count as the language shown writes numbers. */
export const formatCount = (value: number) => numberFormat().format(value);

/** Digits of a currency's minor unit (2 for USD and INR, 0 for JPY), as Intl knows them. */
export function minorDigits(currency: string): number {
  try {
    return (
      numberFormat(undefined, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** An amount in minor units as money: "₹1,499.50", "$19". */
export const formatMoney = (amountMinor: number, currency: string) =>
  amountMinor === 0
    ? numberFormat(formattingLocale(), { style: 'currency', currency, maximumFractionDigits: 0 }).format(0)
    : formatPlanPrice({ price_minor: amountMinor, currency, billing_interval: 'lifetime' }).amount;

/** Minor units as the major-unit number a chart plots (14_999 paise → 149.99). */
export const toMajor = (amountMinor: number, currency: string) => amountMinor / 10 ** minorDigits(currency);

/** "₹12,000 · $40" for all-time totals; "No revenue yet" when nothing was paid. */
export function totalsText(totals: readonly RevenueTotal[]): string {
  const paid = totals.filter((total) => total.amount_minor > 0);
  if (paid.length === 0) return t`No revenue yet`;
  return paid.map((total) => formatMoney(total.amount_minor, total.currency)).join(' · ');
}

/** "₹17,499 gross · ₹7,500 refunded" per currency, beside the net; null when nothing was paid. */
export function grossAndRefundedText(totals: readonly RevenueTotal[]): string | null {
  const paid = totals.filter((total) => total.gross_minor > 0);
  if (paid.length === 0) return null;
  return paid
    .map((total) => {
      const gross = formatMoney(total.gross_minor, total.currency);
      const refunded = formatMoney(total.refunded_minor, total.currency);
      return t`${gross} gross · ${refunded} refunded`;
    })
    .join(' · ');
}

const DAY_LABEL: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', timeZone: 'UTC' };
const MONTH_LABEL: Intl.DateTimeFormatOptions = { month: 'short', year: 'numeric', timeZone: 'UTC' };

/** `YYYY-MM-DD` as "Nov 3", `YYYY-MM` as "Nov 2025" (the server's periods are UTC). */
export function periodLabel(period: string): string {
  const isDay = period.length === 10;
  const date = new Date(isDay ? `${period}T00:00:00Z` : `${period}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return period;
  return new Intl.DateTimeFormat(formattingLocale(), isDay ? DAY_LABEL : MONTH_LABEL).format(date);
}

export interface RevenueSeries {
  /** Currency code: the series' data key and its legend name. */
  name: string;
  label: string;
  color: string;
}

export interface RevenueChartData {
  /** One row per period: `label` plus the revenue of each currency in major units. */
  rows: Array<{ label: string; period: string } & Record<string, number | string>>;
  series: RevenueSeries[];
  /** What the range adds up to, per currency, for the summary line. */
  totals: RevenueTotal[];
  /** The period with the most revenue in the first currency, if anything was paid. */
  best: { label: string; amount: string } | null;
  /** The same numbers as text, one row per period: label, then the money of each currency. */
  table: string[][];
}

const SERIES_COLORS = ['iris.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6'];

/** Revenue per day (30) or month (12) as chart rows, one series per currency paid in. */
export function revenueChartData(
  periods: readonly RevenuePeriod[],
  allTime: readonly RevenueTotal[],
): RevenueChartData {
  const currencies = [
    ...new Set([
      ...allTime.map((total) => total.currency),
      ...periods.flatMap((p) => p.totals.map((t) => t.currency)),
    ]),
  ];
  const sums = new Map<string, RevenueTotal>(
    currencies.map((currency) => [
      currency,
      { currency, amount_minor: 0, gross_minor: 0, refunded_minor: 0, payments: 0 },
    ]),
  );
  let best: RevenueChartData['best'] = null;
  let bestAmount = 0;
  const table: string[][] = [];
  const rows = periods.map((period) => {
    const row: { label: string; period: string } & Record<string, number | string> = {
      label: periodLabel(period.period),
      period: period.period,
    };
    for (const currency of currencies) row[currency] = 0;
    for (const total of period.totals) {
      row[total.currency] = toMajor(total.amount_minor, total.currency);
      const sum = sums.get(total.currency)!;
      sum.amount_minor += total.amount_minor;
      sum.gross_minor += total.gross_minor;
      sum.refunded_minor += total.refunded_minor;
      sum.payments += total.payments;
      if (total.currency === currencies[0] && total.amount_minor > bestAmount) {
        bestAmount = total.amount_minor;
        best = { label: row.label, amount: formatMoney(total.amount_minor, total.currency) };
      }
    }
    table.push([
      row.label,
      ...currencies.map((currency) =>
        formatMoney(period.totals.find((total) => total.currency === currency)?.amount_minor ?? 0, currency),
      ),
    ]);
    return row;
  });
  return {
    rows,
    series: currencies.map((currency, index) => ({
      name: currency,
      label: currency,
      color: SERIES_COLORS[index % SERIES_COLORS.length]!,
    })),
    totals: [...sums.values()],
    best,
    table,
  };
}

/** "₹4,200 from 6 payments in the last 30 days; the best day was Nov 3 (₹1,500)." */
export function revenueSummary(data: RevenueChartData, range: RevenueRange): string {
  const paid = data.totals.filter((total) => total.payments > 0);
  if (paid.length === 0)
    return range === 'days' ? t`No payments in the last 30 days.` : t`No payments in the last 12 months.`;
  const amounts = paid
    .map((total) => {
      const amount = formatMoney(total.amount_minor, total.currency);
      const count = total.payments;
      return t`${amount} from ${plural(count, { one: '# payment', other: '# payments' })}`;
    })
    .reduce((head, last) => t`${head} and ${last}`);
  if (!data.best)
    return range === 'days' ? t`${amounts} in the last 30 days.` : t`${amounts} in the last 12 months.`;
  const { label, amount } = data.best;
  return range === 'days'
    ? t`${amounts} in the last 30 days; the best day was ${label} (${amount}).`
    : t`${amounts} in the last 12 months; the best month was ${label} (${amount}).`;
}

interface ChartEntry {
  /** The name in the legend and the table (render with the shown language's `i18n._`). */
  label: MessageDescriptor;
  /** "{count} active", as a summary sentence counts it (`count` already formatted). */
  counted: MessageDescriptor;
  color: string;
}

/** Each status's name and colour. */
export const LICENSE_STATUS_CHART: Record<LicenseStatus, ChartEntry> = {
  active: { label: msg`Active`, counted: msg({ message: '{count} active' }), color: 'teal.6' },
  suspended: { label: msg`Suspended`, counted: msg({ message: '{count} suspended' }), color: 'yellow.6' },
  expired: { label: msg`Expired`, counted: msg({ message: '{count} expired' }), color: 'gray.6' },
  revoked: { label: msg`Revoked`, counted: msg({ message: '{count} revoked' }), color: 'red.6' },
  trial_expired: {
    label: msg`Trial ended`,
    counted: msg({ message: '{count} trial ended' }),
    color: 'orange.6',
  },
  paused: { label: msg`Paused`, counted: msg({ message: '{count} paused' }), color: 'blue.6' },
};

/** An entry's "{count} …" with the count written as the language shown writes numbers. */
function countedText(entry: ChartEntry, count: number): string {
  // Not spread inline into `i18n._({ … })`: Lingui's extractor reads an object literal there as a
  // message descriptor and fails on the spread ("Cannot read properties of undefined").
  const descriptor: MessageDescriptor = { ...entry.counted, values: { count: formatCount(count) } };
  return i18n._(descriptor);
}

/** Licenses per effective status, in a fixed order, for the donut and its table. */
export const licenseStatusData = (byStatus: DashboardStats['licenses']['by_status']) =>
  LICENSE_STATUSES.map((status) => ({
    status,
    name: i18n._(LICENSE_STATUS_CHART[status].label),
    counted: countedText(LICENSE_STATUS_CHART[status], byStatus[status]),
    value: byStatus[status],
    color: LICENSE_STATUS_CHART[status].color,
  }));

/** Bar colours that keep their label readable (white on red 9 and iris 6, dark on yellow 5). */
export const SEVERITY_CHART: Record<SecuritySeverityName, ChartEntry> = {
  critical: { label: msg`Critical`, counted: msg({ message: '{count} critical' }), color: 'red.9' },
  warning: { label: msg`Warning`, counted: msg({ message: '{count} warning' }), color: 'yellow.5' },
  info: { label: msg`Info`, counted: msg({ message: '{count} info' }), color: 'iris.6' },
};

/** Security events of the last 30 days per severity, most severe first. */
export const severityData = (bySeverity: DashboardStats['security']['by_severity']) =>
  [...SECURITY_SEVERITIES].reverse().map((severity) => ({
    severity,
    name: i18n._(SEVERITY_CHART[severity].label),
    counted: countedText(SEVERITY_CHART[severity], bySeverity[severity]),
    value: bySeverity[severity],
    color: SEVERITY_CHART[severity].color,
  }));

/** "3 active, 1 suspended, 2 expired and 0 revoked" */
export function listSentence(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  const head = parts.slice(0, -1).join(', ');
  const last = parts[parts.length - 1] ?? '';
  return t`${head} and ${last}`;
}

/** A share (0 to 1) as "42%"; "–" when there is none to take (nothing started). */
export const formatRate = (rate: number | null) =>
  rate === null ? '–' : numberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 }).format(rate);

/** Free trials per month as chart rows (the rate in percent, for the chart's right axis) and as a table. */
export function trialsChartData(trials: DashboardStats['trials']) {
  const rows = trials.by_month.map((month) => ({
    label: periodLabel(month.period),
    started: month.started,
    converted: month.converted,
    rate: month.rate === null ? null : Math.round(month.rate * 1000) / 10,
  }));
  const table = trials.by_month.map((month) => [
    periodLabel(month.period),
    formatCount(month.started),
    formatCount(month.converted),
    formatRate(month.rate),
  ]);
  return { rows, table };
}

/** "14 trials started in the last 12 months; 5 of them were bought (36%)." */
export function trialsSummary(trials: DashboardStats['trials']): string {
  if (trials.started === 0) return t`No free trials started in the last 12 months.`;
  const count = trials.started;
  const started = plural(count, {
    one: '# trial started in the last 12 months',
    other: '# trials started in the last 12 months',
  });
  if (trials.converted === 0) return t`${started}; none was bought yet.`;
  const converted = trials.converted;
  const bought = plural(converted, { one: '# of them was bought', other: '# of them were bought' });
  const rate = formatRate(trials.rate);
  return t`${started}; ${bought} (${rate}).`;
}
