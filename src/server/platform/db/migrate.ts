import { type Kysely, type Migration, type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database.js';
import * as accounts from './migrations/0001-accounts.js';
import * as licensing from './migrations/0002-licensing.js';
import * as defaultCatalogue from './migrations/0003-default-catalogue.js';
import * as payments from './migrations/0004-payments.js';
import * as adminIndexes from './migrations/0005-admin-indexes.js';
import * as mailOutbox from './migrations/0006-mail-outbox.js';
import * as activationOwner from './migrations/0007-activation-owner.js';
import * as subscriptions from './migrations/0008-subscriptions.js';
import * as invoices from './migrations/0009-invoices.js';
import * as customerMail from './migrations/0010-customer-mail.js';
import * as coupons from './migrations/0011-coupons.js';
import * as machineNames from './migrations/0012-machine-names.js';
import * as checkoutExpiry from './migrations/0013-checkout-expiry.js';
import * as supportRequests from './migrations/0014-support-requests.js';
import * as subscriptionReplacement from './migrations/0015-subscription-replacement.js';
import * as accountSecurity from './migrations/0016-account-security.js';
import * as apiTokens from './migrations/0017-api-tokens.js';
import * as webhooks from './migrations/0018-webhooks.js';
import * as organisations from './migrations/0019-organisations.js';
import * as releaseChannels from './migrations/0020-release-channels.js';
import * as offlineActivation from './migrations/0021-offline-activation.js';
import * as webSessionBinding from './migrations/0022-web-session-binding.js';
import * as seatKeys from './migrations/0023-seat-keys.js';
import * as usSpellingBusinessPlan from './migrations/0024-us-spelling-business-plan.js';
import * as planChangeQuotes from './migrations/0025-plan-change-quotes.js';
import * as invoiceLineItems from './migrations/0026-invoice-line-items.js';
import * as planDrafts from './migrations/0027-plan-drafts.js';
import * as updateWindows from './migrations/0028-update-windows.js';
import * as trials from './migrations/0029-trials.js';
import * as cardTrials from './migrations/0030-card-trials.js';
import * as machineTrials from './migrations/0031-machine-trials.js';
import * as usageMetering from './migrations/0032-usage-metering.js';
import * as creditPacks from './migrations/0033-credit-packs.js';
import * as usageReservations from './migrations/0034-usage-reservations.js';
import * as overageCharges from './migrations/0035-overage-charges.js';
import * as memberUsageCaps from './migrations/0036-member-usage-caps.js';
import * as requestOrigin from './migrations/0037-request-origin.js';
import * as floatingLicences from './migrations/0038-floating-licences.js';
import * as floatingMembers from './migrations/0050-floating-members.js';
import * as ssoDesktopAndMetadata from './migrations/0052-sso-desktop-and-metadata.js';
import * as fairUse from './migrations/0039-fair-use.js';
import * as accountData from './migrations/0040-account-data.js';
import * as organisationDomains from './migrations/0042-organisation-domains.js';
import * as organisationSso from './migrations/0043-organisation-sso.js';
import * as organisationSaml from './migrations/0047-organisation-saml.js';
import * as scim from './migrations/0045-scim.js';
import * as subscriptionPause from './migrations/0046-subscription-pause.js';
import * as reservationsByMachine from './migrations/0049-reservations-by-machine.js';
import * as invoiceTaxTreatment from './migrations/0053-invoice-tax-treatment.js';
import * as planPrices from './migrations/0054-plan-prices.js';

/** Every migration by name, applied in name order; imported statically so the compiled server and tests see the same set. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-licensing': licensing,
  '0003-default-catalogue': defaultCatalogue,
  '0004-payments': payments,
  '0005-admin-indexes': adminIndexes,
  '0006-mail-outbox': mailOutbox,
  '0007-activation-owner': activationOwner,
  '0008-subscriptions': subscriptions,
  '0009-invoices': invoices,
  '0010-customer-mail': customerMail,
  '0011-coupons': coupons,
  '0012-machine-names': machineNames,
  '0013-checkout-expiry': checkoutExpiry,
  '0014-support-requests': supportRequests,
  '0015-subscription-replacement': subscriptionReplacement,
  '0016-account-security': accountSecurity,
  '0017-api-tokens': apiTokens,
  '0018-webhooks': webhooks,
  '0019-organisations': organisations,
  '0020-release-channels': releaseChannels,
  '0021-offline-activation': offlineActivation,
  '0022-web-session-binding': webSessionBinding,
  '0023-seat-keys': seatKeys,
  '0024-us-spelling-business-plan': usSpellingBusinessPlan,
  '0025-plan-change-quotes': planChangeQuotes,
  '0026-invoice-line-items': invoiceLineItems,
  '0027-plan-drafts': planDrafts,
  '0028-update-windows': updateWindows,
  '0029-trials': trials,
  '0030-card-trials': cardTrials,
  '0031-machine-trials': machineTrials,
  '0032-usage-metering': usageMetering,
  '0033-credit-packs': creditPacks,
  '0034-usage-reservations': usageReservations,
  '0035-overage-charges': overageCharges,
  '0036-member-usage-caps': memberUsageCaps,
  '0037-request-origin': requestOrigin,
  '0038-floating-licences': floatingLicences,
  '0039-fair-use': fairUse,
  '0040-account-data': accountData,
  '0042-organisation-domains': organisationDomains,
  '0043-organisation-sso': organisationSso,
  '0045-scim': scim,
  '0046-subscription-pause': subscriptionPause,
  '0047-organisation-saml': organisationSaml,
  '0049-reservations-by-machine': reservationsByMachine,
  '0050-floating-members': floatingMembers,
  '0052-sso-desktop-and-metadata': ssoDesktopAndMetadata,
  '0053-invoice-tax-treatment': invoiceTaxTreatment,
  '0054-plan-prices': planPrices,
};

export class MigrationError extends Error {
  constructor(
    readonly migrationName: string | undefined,
    cause: unknown,
  ) {
    super(`Database migration ${migrationName ?? ''} failed`.replace('  ', ' '), { cause });
    this.name = 'MigrationError';
  }
}

/** Brings the schema up to date; safe to run on every start and from several instances. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet['results']> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new MigrationError(failed?.migrationName, error);
  }
  return results;
}

export interface MigrationStatus {
  /** Applied migrations, in name order; the last is the schema's level. */
  applied: string[];
  /** Migrations of this release the database has not had yet, in the order they would run. */
  pending: string[];
  /** Applied migrations this release does not know: a newer release migrated the database. */
  unknown: string[];
}

const MIGRATION_TABLE = 'kysely_migration';

/** What `migrateToLatest` would do, without doing it (nor creating the migration tables). */
export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const recorded = tables.some((table) => table.name === MIGRATION_TABLE)
    ? (
        await (db as unknown as Kysely<{ [MIGRATION_TABLE]: { name: string } }>)
          .selectFrom(MIGRATION_TABLE)
          .select('name')
          .orderBy('name')
          .execute()
      ).map((row) => row.name)
    : [];
  const done = new Set(recorded);
  return {
    applied: recorded,
    pending: Object.keys(migrations)
      .sort()
      .filter((name) => !done.has(name)),
    unknown: recorded.filter((name) => !(name in migrations)),
  };
}
