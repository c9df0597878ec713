import { sql } from 'kysely';
import type { DashboardStats } from '../../../shared/api/admin.js';
import { utc } from '../../../shared/dates.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { securityEventsWithEmails, toSecurityEvent } from './security-events-repository.js';

const RECENT_EVENTS = 10;

type RevenueRow = {
  period: string;
  currency: string;
  amount: number | string | null;
  payments: number | string;
};
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

const toTotals = (rows: Omit<RevenueRow, 'period'>[]): Totals =>
  rows
    .map((row) => ({
      currency: row.currency,
      amount_minor: Number(row.amount ?? 0),
      payments: Number(row.payments),
    }))
    .sort((a, b) => a.currency.localeCompare(b.currency));

/** Every period of the window, with an empty list where nothing was paid, so charts need no gap filling. */
function byPeriod(periods: string[], rows: RevenueRow[]) {
  return periods.map((period) => ({ period, totals: toTotals(rows.filter((row) => row.period === period)) }));
}

/** System figures for the admin dashboard: a handful of aggregate queries, none of them per row. */
export function createDashboard({ db, clock }: { db: Db; clock: Clock }) {
  /** Paid revenue per currency and period, `length` characters of `paid_at` naming the period. */
  const revenueSince = (since: string, length: 7 | 10) => {
    const period = sql<string>`substr(${sql.ref('paid_at')}, 1, ${sql.lit(length)})`;
    return db
      .selectFrom('payments')
      .select((eb) => [
        period.as('period'),
        'currency',
        eb.fn.sum<number | string | null>('amount_minor').as('amount'),
        eb.fn.countAll<number | string>().as('payments'),
      ])
      .where('status', '=', 'paid')
      .where('paid_at', '>=', since)
      .groupBy([period, 'currency'])
      .execute();
  };

  return {
    async stats(): Promise<DashboardStats> {
      const now = clock.now();
      const nowIso = now.toISOString();
      const days = lastDays(now, 30);
      const months = lastMonths(now, 12);
      const thirtyDaysAgo = utc(now).subtract(30, 'day').toISOString();
      const dayAgo = utc(now).subtract(1, 'day').toISOString();

      const [users, licenses, activations, totals, daily, monthly, severities, recent] = await Promise.all([
        db
          .selectFrom('users')
          .select((eb) => [
            eb.fn.countAll<number | string>().as('total'),
            eb.fn.countAll<number | string>().filterWhere('status', '=', 'active').as('active'),
            eb.fn.countAll<number | string>().filterWhere('status', '=', 'disabled').as('disabled'),
            eb.fn.countAll<number | string>().filterWhere('role', '=', 'admin').as('admins'),
            eb.fn.countAll<number | string>().filterWhere('created_at', '>=', thirtyDaysAgo).as('recent'),
          ])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('licenses')
          .select((eb) => {
            const expired = eb.and([eb('status', '=', 'active'), eb('expires_at', '<=', nowIso)]);
            return [
              eb.fn.countAll<number | string>().as('total'),
              eb.fn
                .countAll<number | string>()
                .filterWhere((inner) =>
                  inner.and([
                    inner('status', '=', 'active'),
                    inner.or([inner('expires_at', 'is', null), inner('expires_at', '>', nowIso)]),
                  ]),
                )
                .as('active'),
              eb.fn.countAll<number | string>().filterWhere('status', '=', 'suspended').as('suspended'),
              eb.fn.countAll<number | string>().filterWhere('status', '=', 'revoked').as('revoked'),
              eb.fn
                .countAll<number | string>()
                .filterWhere((inner) => inner.or([inner('status', '=', 'expired'), expired]))
                .as('expired'),
            ];
          })
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('activations')
          .select((eb) => [
            eb.fn.countAll<number | string>().filterWhere('deactivated_at', 'is', null).as('active'),
            eb.fn.countAll<number | string>().filterWhere('activated_at', '>=', dayAgo).as('recent'),
          ])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('payments')
          .select((eb) => [
            'currency',
            eb.fn.sum<number | string | null>('amount_minor').as('amount'),
            eb.fn.countAll<number | string>().as('payments'),
          ])
          .where('status', '=', 'paid')
          .groupBy('currency')
          .execute(),
        revenueSince(`${days[0]}T00:00:00.000Z`, 10),
        revenueSince(`${months[0]}-01T00:00:00.000Z`, 7),
        db
          .selectFrom('security_events')
          .select(['severity', (eb) => eb.fn.countAll<number | string>().as('count')])
          .where('created_at', '>=', thirtyDaysAgo)
          .groupBy('severity')
          .execute(),
        securityEventsWithEmails(db)
          .orderBy('security_events.created_at', 'desc')
          .orderBy('security_events.id', 'desc')
          .limit(RECENT_EVENTS)
          .execute(),
      ]);

      const severityCount = (severity: string) =>
        Number(severities.find((row) => row.severity === severity)?.count ?? 0);
      return {
        users: {
          total: Number(users.total),
          active: Number(users.active),
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
          },
        },
        activations: { active: Number(activations.active), last_24h: Number(activations.recent) },
        revenue: {
          totals: toTotals(totals),
          by_day: byPeriod(days, daily),
          by_month: byPeriod(months, monthly),
        },
        security: {
          by_severity: {
            info: severityCount('info'),
            warning: severityCount('warning'),
            critical: severityCount('critical'),
          },
          recent: recent.map(toSecurityEvent),
        },
        generated_at: nowIso,
      };
    },
  };
}

export type Dashboard = ReturnType<typeof createDashboard>;
