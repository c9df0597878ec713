import type { DbOrTransaction } from '../../platform/db/database.js';
import type { OrganisationDomainRow } from '../../platform/db/tables-organisations.js';

export const domainsOfOrganisation = (db: DbOrTransaction, organisationId: string) =>
  db
    .selectFrom('organisation_domains')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('domain')
    .execute();

export const findDomainClaim = (db: DbOrTransaction, organisationId: string, id: string) =>
  db
    .selectFrom('organisation_domains')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();

/** The organisation holding `domain` verified, if one does. */
export const findVerifiedClaim = (db: DbOrTransaction, domain: string) =>
  db.selectFrom('organisation_domains').selectAll().where('verified_domain', '=', domain).executeTakeFirst();

export async function countDomainClaims(db: DbOrTransaction, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('organisation_domains')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertDomainClaim(db: DbOrTransaction, row: OrganisationDomainRow): Promise<void> {
  await db.insertInto('organisation_domains').values(row).execute();
}

/** Marks the claim verified; a unique violation means another organisation verified it first. */
export async function markDomainVerified(db: DbOrTransaction, id: string, domain: string, at: string) {
  await db
    .updateTable('organisation_domains')
    .set({ verified_domain: domain, verified_at: at, checked_at: at, check_failure: null })
    .where('id', '=', id)
    .execute();
}

export async function recordFailedCheck(db: DbOrTransaction, id: string, at: string, failure: string) {
  await db
    .updateTable('organisation_domains')
    .set({ checked_at: at, check_failure: failure })
    .where('id', '=', id)
    .execute();
}

export async function deleteDomainClaim(db: DbOrTransaction, id: string): Promise<void> {
  await db.deleteFrom('organisation_domains').where('id', '=', id).execute();
}
