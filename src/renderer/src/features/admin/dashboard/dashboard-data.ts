import type { DashboardStats, SecuritySeverityName } from '../../../../../shared/api/admin';
import { LICENSE_STATUSES, type LicenseStatus } from '../../../../../shared/api/licenses';
import { SECURITY_SEVERITIES } from '../../../../../shared/api/admin';
import { formatPlanPrice } from '../../plans';

/** What the admin overview's charts and cards show, worked out from `GET /admin/dashboard`. */

type RevenueTotal = DashboardStats['revenue']['totals'][number];
type RevenuePeriod = DashboardStats['revenue']['by_day'][number];
export type RevenueRange = 'days' | 'months';

const number = new Intl.NumberFormat();
export const formatCount = (value: number) => number.format(value);

/** Digits of a currency's minor unit (2 for USD and INR, 0 for JPY), as Intl knows them. */
export function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat(undefined, { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** An amount in minor units as money: "₹1,499.50", "$19". */
export const formatMoney = (amountMinor: number, currency: string) =>
  amountMinor === 0
    ? new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 0 }).format(0)
    : formatPlanPrice({ price_minor: amountMinor, currency, billing_interval: 'lifetime' }).amount;

/** Minor units as the major-unit number a chart plots (14_999 paise → 149.99). */
export const toMajor = (amountMinor: number, currency: string) => amountMinor / 10 ** minorDigits(currency);

/** "₹12,000 · $40" for all-time totals; "No revenue yet" when nothing was paid. */
export function totalsText(totals: readonly RevenueTotal[]): string {
  const paid = totals.filter((total) => total.amount_minor > 0);
  if (paid.length === 0) return 'No revenue yet';
  return paid.map((total) => formatMoney(total.amount_minor, total.currency)).join(' · ');
}

/** "₹17,499 gross · ₹7,500 refunded" per currency, beside the net; null when nothing was paid. */
export function grossAndRefundedText(totals: readonly RevenueTotal[]): string | null {
  const paid = totals.filter((total) => total.gross_minor > 0);
  if (paid.length === 0) return null;
  return paid
    .map(
      (total) =>
        `${formatMoney(total.gross_minor, total.currency)} gross · ${formatMoney(total.refunded_minor, total.currency)} refunded`,
    )
    .join(' · ');
}

const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const monthLabel = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** `YYYY-MM-DD` as "Nov 3", `YYYY-MM` as "Nov 2025" (the server's periods are UTC). */
export function periodLabel(period: string): string {
  const isDay = period.length === 10;
  const date = new Date(isDay ? `${period}T00:00:00Z` : `${period}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return period;
  return (isDay ? dayLabel : monthLabel).format(date);
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
  const span = range === 'days' ? 'in the last 30 days' : 'in the last 12 months';
  const paid = data.totals.filter((total) => total.payments > 0);
  if (paid.length === 0) return `No payments ${span}.`;
  const amounts = paid
    .map(
      (total) =>
        `${formatMoney(total.amount_minor, total.currency)} from ${formatCount(total.payments)} payment${total.payments === 1 ? '' : 's'}`,
    )
    .join(' and ');
  const best = data.best
    ? `; the best ${range === 'days' ? 'day' : 'month'} was ${data.best.label} (${data.best.amount})`
    : '';
  return `${amounts} ${span}${best}.`;
}

export const LICENSE_STATUS_CHART: Record<LicenseStatus, { label: string; color: string }> = {
  active: { label: 'Active', color: 'teal.6' },
  suspended: { label: 'Suspended', color: 'yellow.6' },
  expired: { label: 'Expired', color: 'gray.6' },
  revoked: { label: 'Revoked', color: 'red.6' },
  trial_expired: { label: 'Trial ended', color: 'orange.6' },
  paused: { label: 'Paused', color: 'blue.6' },
};

/** Licenses per effective status, in a fixed order, for the donut and its table. */
export const licenseStatusData = (byStatus: DashboardStats['licenses']['by_status']) =>
  LICENSE_STATUSES.map((status) => ({
    status,
    name: LICENSE_STATUS_CHART[status].label,
    value: byStatus[status],
    color: LICENSE_STATUS_CHART[status].color,
  }));

/** Bar colours that keep their label readable (white on red 9 and iris 6, dark on yellow 5). */
export const SEVERITY_CHART: Record<SecuritySeverityName, { label: string; color: string }> = {
  critical: { label: 'Critical', color: 'red.9' },
  warning: { label: 'Warning', color: 'yellow.5' },
  info: { label: 'Info', color: 'iris.6' },
};

/** Security events of the last 30 days per severity, most severe first. */
export const severityData = (bySeverity: DashboardStats['security']['by_severity']) =>
  [...SECURITY_SEVERITIES].reverse().map((severity) => ({
    severity,
    name: SEVERITY_CHART[severity].label,
    value: bySeverity[severity],
    color: SEVERITY_CHART[severity].color,
  }));

/** "3 active, 1 suspended, 2 expired and 0 revoked" */
export function listSentence(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

/** A share (0 to 1) as "42%"; "–" when there is none to take (nothing started). */
export const formatRate = (rate: number | null) => (rate === null ? '–' : percent.format(rate));

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
  if (trials.started === 0) return 'No free trials started in the last 12 months.';
  const started = `${formatCount(trials.started)} trial${trials.started === 1 ? '' : 's'} started in the last 12 months`;
  if (trials.converted === 0) return `${started}; none was bought yet.`;
  const bought =
    trials.converted === 1 ? '1 of them was bought' : `${formatCount(trials.converted)} of them were bought`;
  return `${started}; ${bought} (${formatRate(trials.rate)}).`;
}
