import type { DbOrTransaction } from '../../platform/db/database.js';
import type {
  OrganisationSsoTable,
  SsoSignInRow,
  SsoSignInsTable,
} from '../../platform/db/tables-organisations.js';

export const findSsoSettings = (db: DbOrTransaction, organisationId: string) =>
  db
    .selectFrom('organisation_sso')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();

export async function upsertSsoSettings(db: DbOrTransaction, row: OrganisationSsoTable): Promise<void> {
  const { organisation_id: _id, created_at: _created, ...changes } = row;
  await db
    .insertInto('organisation_sso')
    .values(row)
    .onConflict((conflict) => conflict.column('organisation_id').doUpdateSet(changes))
    .execute();
}

export async function deleteSsoSettings(db: DbOrTransaction, organisationId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('organisation_sso')
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function recordSsoTest(db: DbOrTransaction, organisationId: string, at: string, result: string) {
  await db
    .updateTable('organisation_sso')
    .set({ last_test_at: at, last_test_result: result })
    .where('organisation_id', '=', organisationId)
    .execute();
}

/** The organisation holding `domain` verified, with its SSO settings when it has them. */
export const findSsoByVerifiedDomain = (db: DbOrTransaction, domain: string) =>
  db
    .selectFrom('organisation_domains')
    .innerJoin('organisations', 'organisations.id', 'organisation_domains.organisation_id')
    .leftJoin('organisation_sso', 'organisation_sso.organisation_id', 'organisation_domains.organisation_id')
    .select([
      'organisations.id as organisation_id',
      'organisations.name as organisation_name',
      'organisation_sso.issuer',
      'organisation_sso.require_sso',
    ])
    .where('organisation_domains.verified_domain', '=', domain)
    .executeTakeFirst();

/** Whether `domain` is one the organisation holds verified. */
export async function holdsVerifiedDomain(
  db: DbOrTransaction,
  organisationId: string,
  domain: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('organisation_domains')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('verified_domain', '=', domain)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countVerifiedDomains(db: DbOrTransaction, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('organisation_domains')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where('verified_domain', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertSsoSignIn(db: DbOrTransaction, row: SsoSignInsTable): Promise<void> {
  await db.insertInto('sso_sign_ins').values(row).execute();
}

export const findSsoSignIn = (db: DbOrTransaction, stateHash: string) =>
  db.selectFrom('sso_sign_ins').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();

/** Spends the sign-in's callback: true for the one caller that got it while unused and unexpired. */
export async function spendSsoSignIn(db: DbOrTransaction, stateHash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('sso_sign_ins')
    .set({ used_at: at })
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setSsoHandoff(
  db: DbOrTransaction,
  stateHash: string,
  handoff: { handoff_hash: string; handoff_expires_at: string; user_id: string; outcome: string },
): Promise<void> {
  await db.updateTable('sso_sign_ins').set(handoff).where('state_hash', '=', stateHash).execute();
}

/** Takes the hand-over code once (when `mayTake` says so): the row it belonged to, or nothing when spent, unknown or expired. */
export async function takeSsoHandoff(
  db: DbOrTransaction,
  handoffHash: string,
  at: string,
  /** Whether the caller may take it (the desktop app's verifier); a refusal leaves the code as it is. */
  mayTake: (row: SsoSignInRow) => boolean = () => true,
) {
  const row = await db
    .selectFrom('sso_sign_ins')
    .selectAll()
    .where('handoff_hash', '=', handoffHash)
    .where('handoff_expires_at', '>', at)
    .executeTakeFirst();
  if (!row || !mayTake(row)) return undefined;
  const result = await db
    .updateTable('sso_sign_ins')
    .set({ handoff_hash: null, handoff_expires_at: null })
    .where('state_hash', '=', row.state_hash)
    .where('handoff_hash', '=', handoffHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row : undefined;
}

/** Sign-ins past their life (a hand-over code lives shorter still): nothing reads them any more. */
export async function pruneSsoSignIns(db: DbOrTransaction, before: string): Promise<number> {
  const result = await db.deleteFrom('sso_sign_ins').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Keeps what a SAML sign-in's verified answer said, once: true for the one answer that found the
 * sign-in unanswered, unspent and unexpired (the browser then comes back to the callback for it).
 */
export async function answerSamlSignIn(
  db: DbOrTransaction,
  stateHash: string,
  identity: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('sso_sign_ins')
    .set({ saml_identity: identity })
    .where('state_hash', '=', stateHash)
    .where('protocol', '=', 'saml')
    .where('saml_identity', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Remembers an accepted assertion's ID until it expires: false when it was accepted before. */
export async function recordSamlAssertion(
  db: DbOrTransaction,
  row: { organisation_id: string; assertion_id: string; accepted_at: string; expires_at: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('saml_assertions')
    .values(row)
    .onConflict((conflict) => conflict.columns(['organisation_id', 'assertion_id']).doNothing())
    .returning('assertion_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Assertions past their expiry: refused by their own dates now, so no longer remembered. */
export async function pruneSamlAssertions(db: DbOrTransaction, before: string): Promise<number> {
  const result = await db.deleteFrom('saml_assertions').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Notes that the organisation's SAML metadata URL was read (whatever it gave). */
export async function markSamlMetadataRead(db: DbOrTransaction, organisationId: string, at: string) {
  await db
    .updateTable('organisation_sso')
    .set({ saml_metadata_read_at: at })
    .where('organisation_id', '=', organisationId)
    .execute();
}

/** Keeps the certificates and sign-in URL the SAML provider's metadata now publishes. */
export async function setSamlCertificates(
  db: DbOrTransaction,
  organisationId: string,
  published: { saml_certificates: string; saml_sso_url: string },
) {
  await db
    .updateTable('organisation_sso')
    .set(published)
    .where('organisation_id', '=', organisationId)
    .execute();
}
