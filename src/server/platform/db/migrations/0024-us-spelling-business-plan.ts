import { type Kysely, sql } from 'kysely';

// Product text is US English. The Business plan was seeded (0019) with "organisations" in its
// description; rewrite it only where an administrator has not edited it since.

const CODE = 'business-monthly';
const SEEDED =
  'For organisations: named seats you assign to people, two machines each, unlimited chat and priority support. Priced per seat.';
const US =
  'For organizations: named seats you assign to people, two machines each, unlimited chat and priority support. Priced per seat.';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update plans set description = ${US} where code = ${CODE} and description = ${SEEDED}`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update plans set description = ${SEEDED} where code = ${CODE} and description = ${US}`.execute(
    db,
  );
}
