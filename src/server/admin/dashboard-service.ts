import type { DashboardStats } from '../../shared/api/admin.js';
import { utc } from '../../shared/dates.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { discountOf } from '../catalogue/index.js';
import { type TrialMonthRow, trialsByStartMonth } from '../licensing/index.js';
import { countSecurityEventsBySeverity, recentSecurityEvents } from '../platform/security-log/service.js';
import {
  billedSubscriptionGroups,
  countActivations,
  countFailedCharges,
  countLicenses,
  countSubscriptions,
  countUsers,
  type RevenueRow,
  revenueSince,
  revenueTotals,
} from './dashboard-repository.js';

const RECENT_EVENTS = 10;
const CHURN_WINDOW_DAYS = 30;

/**
 * MRR per currency: what each billed subscription is charged per cycle before tax (its plan's price
 * less an every-charge coupon, percent or amount, taken off each seat's price as its charges are; a
 * first-charge one is spent) times the seats it pays for, monthly ones plus a twelfth of the yearly
 * ones, rounded down, in integers.
 */
function toMrr(
  groups: Awaited<ReturnType<typeof billedSubscriptionGroups>>,
): DashboardStats['subscriptions']['mrr'] {
  const byCurrency = new Map<string, { monthly: number; yearly: number; subscriptions: number }>();
  for (const group of groups) {
    const price = Number(group.price_minor);
    const count = Number(group.subscriptions);
    const seats = Number(group.seats);
    const discount =
      group.coupon_duration === 'forever'
        ? discountOf(
            {
              percent_off: group.percent_off === null ? null : Number(group.percent_off),
              amount_off_minor: group.amount_off_minor === null ? null : Number(group.amount_off_minor),
              currency: group.coupon_currency,
            },
            price,
            group.currency,
          )
        : 0;
    const sums = byCurrency.get(group.currency) ?? { monthly: 0, yearly: 0, subscriptions: 0 };
    if (group.billing_interval === 'month') sums.monthly += (price - discount) * seats;
    else if (group.billing_interval === 'year') sums.yearly += (price - discount) * seats;
    else continue;
    sums.subscriptions += count;
    byCurrency.set(group.currency, sums);
  }
  return [...byCurrency]
    .map(([currency, sums]) => ({
      currency,
      amount_minor: sums.monthly + Math.floor(sums.yearly / 12),
      subscriptions: sums.subscriptions,
    }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
}

type Totals = DashboardStats['revenue']['totals'];

/** UTC days from `days - 1` days ago to today, as YYYY-MM-DD, oldest first. */
const lastDays = (now: Date, days: number) =>
  Array.from({ length: days }, (_, index) =>
    utc(now)
      .subtract(days - 1 - index, 'day')
      .format('YYYY-MM-DD'),
  );

/** UTC months from `months - 1` months ago to this one, as YYYY-MM, oldest first. */
const lastMonths = (now: Date, months: number) =>
  Array.from({ length: months }, (_, index) =>
    utc(now)
      .startOf('month')
      .subtract(months - 1 - index, 'month')
      .format('YYYY-MM'),
  );

/** Net of refunds as `amount_minor`, with the gross paid and the refunded beside it. */
const toTotals = (rows: Omit<RevenueRow, 'period'>[]): Totals =>
  rows
    .map((row) => {
      const gross = Number(row.amount ?? 0);
      const refunded = Number(row.refunded ?? 0);
      return {
        currency: row.currency,
        amount_minor: gross - refunded,
        gross_minor: gross,
        refunded_minor: refunded,
        payments: Number(row.payments),
      };
    })
    .sort((a, b) => a.currency.localeCompare(b.currency));

/** Every period of the window, with an empty list where nothing was paid, so charts need no gap filling. */
function byPeriod(periods: string[], rows: RevenueRow[]) {
  return periods.map((period) => ({ period, totals: toTotals(rows.filter((row) => row.period === period)) }));
}

const rateOf = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** Every month of the window with its trials started and converted (0 where none started), and the sums. */
function toTrials(months: string[], rows: TrialMonthRow[]): DashboardStats['trials'] {
  const by_month = months.map((period) => {
    const row = rows.find((candidate) => candidate.period === period);
    const started = Number(row?.started ?? 0);
    const converted = Number(row?.converted ?? 0);
    return { period, started, converted, rate: rateOf(converted, started) };
  });
  const started = by_month.reduce((sum, month) => sum + month.started, 0);
  const converted = by_month.reduce((sum, month) => sum + month.converted, 0);
  return { started, converted, rate: rateOf(converted, started), by_month };
}

/** System figures for the admin dashboard: a handful of aggregate queries, none of them per row. */
export function createDashboardService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async stats(): Promise<DashboardStats> {
      const now = clock.now();
      const nowIso = now.toISOString();
      const days = lastDays(now, 30);
      const months = lastMonths(now, 12);
      const thirtyDaysAgo = utc(now).subtract(30, 'day').toISOString();
      const dayAgo = utc(now).subtract(1, 'day').toISOString();

      const [
        users,
        licenses,
        activations,
        totals,
        daily,
        monthly,
        severities,
        recent,
        recurring,
        subscriptions,
        failedCharges,
        trials,
      ] = await Promise.all([
        countUsers(db, thirtyDaysAgo),
        countLicenses(db, nowIso),
        countActivations(db, dayAgo),
        revenueTotals(db),
        revenueSince(db, `${days[0]}T00:00:00.000Z`, 10),
        revenueSince(db, `${months[0]}-01T00:00:00.000Z`, 7),
        countSecurityEventsBySeverity(db, thirtyDaysAgo),
        recentSecurityEvents(db, RECENT_EVENTS),
        billedSubscriptionGroups(db),
        countSubscriptions(db, thirtyDaysAgo, nowIso),
        countFailedCharges(db, thirtyDaysAgo),
        trialsByStartMonth(db, `${months[0]}-01T00:00:00.000Z`),
      ]);
      const liveAtStart = Number(subscriptions.live_at_start);
      const ended = Number(subscriptions.ended);

      const severityCount = (severity: string) => severities.get(severity) ?? 0;
      return {
        users: {
          total: Number(users.total),
          active: Number(users.active),
          unconfirmed: Number(users.unconfirmed),
          disabled: Number(users.disabled),
          admins: Number(users.admins),
          new_last_30_days: Number(users.recent),
        },
        licenses: {
          total: Number(licenses.total),
          active: Number(licenses.active),
          by_status: {
            active: Number(licenses.active),
            suspended: Number(licenses.suspended),
            revoked: Number(licenses.revoked),
            expired: Number(licenses.expired),
            trial_expired: Number(licenses.trial_expired),
            paused: Number(licenses.paused),
          },
          perpetual: {
            update_window_open: Number(licenses.window_open),
            update_window_lapsed: Number(licenses.window_lapsed),
          },
        },
        activations: { active: Number(activations.active), last_24h: Number(activations.recent) },
        revenue: {
          totals: toTotals(totals),
          by_day: byPeriod(days, daily),
          by_month: byPeriod(months, monthly),
        },
        subscriptions: {
          active: Number(subscriptions.active),
          mrr: toMrr(recurring),
          churn: {
            window_days: CHURN_WINDOW_DAYS,
            ended,
            live_at_start: liveAtStart,
            rate: liveAtStart === 0 ? null : ended / liveAtStart,
          },
          failed_payments: {
            last_30_days: Number(failedCharges.failed),
            past_due: Number(subscriptions.past_due),
            suspended: Number(subscriptions.suspended),
          },
          paused: { now: Number(subscriptions.paused), planned: Number(subscriptions.pause_planned) },
        },
        trials: toTrials(months, trials),
        security: {
          by_severity: {
            info: severityCount('info'),
            warning: severityCount('warning'),
            critical: severityCount('critical'),
          },
          recent,
        },
        generated_at: nowIso,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
