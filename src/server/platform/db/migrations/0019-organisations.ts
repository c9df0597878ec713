import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// Organisations with named seats. An organisation has one owner, admins and members; it buys a
// seat-based plan, whose license then carries `organisation_id` and `seats` (the seats bought). A
// member holds a seat while `seat_assigned_at` is set, and may activate up to the plan's
// `max_activations` machines on it (for a seat-based plan that is "machines per seat").

const BUSINESS_PLAN = {
  code: 'business-monthly',
  name: 'Business',
  description:
    'For organisations: named seats you assign to people, two machines each, unlimited chat and priority support. Priced per seat.',
  price: 149_900,
  machinesPerSeat: 2,
  limits: {
    ai_chat: null,
    document_analysis: 5000,
    code_assistant: null,
    voice_commands: null,
    offline_mode: null,
    priority_support: null,
  } as Record<string, number | null>,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    // JSON of the billing details its invoices carry (the shape of billing_details' row), or null.
    .addColumn('billing_details', 'text')
    .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('organisations_name_idx').on('organisations').column('name').execute();

  await db.schema
    .createTable('organisation_members')
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (column) => column.notNull())
    // Set while the member holds one of the organisation license's seats.
    .addColumn('seat_assigned_at', 'text')
    .addColumn('joined_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('organisation_members_pk', ['organisation_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('organisation_members_user_idx')
    .on('organisation_members')
    .column('user_id')
    .execute();
  // One owner per organisation, enforced by the database whatever the race.
  await sql`create unique index organisation_members_one_owner on organisation_members (organisation_id) where role = 'owner'`.execute(
    db,
  );

  await db.schema
    .createTable('organisation_invitations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull())
    // SHA-256 of the link's token; a re-send replaces it, so only the newest link works.
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('invited_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('sent_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('organisation_invitations_org_idx')
    .on('organisation_invitations')
    .columns(['organisation_id', 'email'])
    .execute();

  await db.schema
    .alterTable('licenses')
    .addColumn('organisation_id', 'text', (column) => column.references('organisations.id'))
    .execute();
  // Named seats bought; null on a license that is not an organisation's.
  await db.schema.alterTable('licenses').addColumn('seats', 'integer').execute();
  await db.schema.createIndex('licenses_organisation_idx').on('licenses').column('organisation_id').execute();

  await db.schema
    .alterTable('subscriptions')
    .addColumn('organisation_id', 'text', (column) => column.references('organisations.id'))
    .execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('seats', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();

  // A seat-based plan is priced per seat and sold to organisations only.
  await db.schema
    .alterTable('plans')
    .addColumn('seat_based', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();

  const now = new Date().toISOString();
  const planId = randomUUID();
  const order = await sql<{
    next: number;
  }>`select coalesce(max(sort_order), 0) + 10 as next from plans`.execute(db);
  await sql`insert into plans (id, code, name, description, price_minor, currency, billing_interval,
      max_activations, is_public, is_active, sort_order, archived_at, created_at, updated_at, seat_based)
    values (${planId}, ${BUSINESS_PLAN.code}, ${BUSINESS_PLAN.name}, ${BUSINESS_PLAN.description},
      ${BUSINESS_PLAN.price}, ${'INR'}, ${'month'}, ${BUSINESS_PLAN.machinesPerSeat}, ${1}, ${1},
      ${Number(order.rows[0]?.next ?? 100)}, ${null}, ${now}, ${now}, ${1})`.execute(db);
  for (const [key, limit] of Object.entries(BUSINESS_PLAN.limits)) {
    await sql`insert into plan_features (plan_id, feature_id, limit_value)
      select ${planId}, id, ${limit} from features where key = ${key}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from plan_features where plan_id in (select id from plans where code = ${BUSINESS_PLAN.code})`.execute(
    db,
  );
  await sql`delete from plans where code = ${BUSINESS_PLAN.code}`.execute(db);
  await db.schema.alterTable('plans').dropColumn('seat_based').execute();
  await db.schema.alterTable('subscriptions').dropColumn('seats').execute();
  await db.schema.alterTable('subscriptions').dropColumn('organisation_id').execute();
  await db.schema.dropIndex('licenses_organisation_idx').execute();
  await db.schema.alterTable('licenses').dropColumn('seats').execute();
  await db.schema.alterTable('licenses').dropColumn('organisation_id').execute();
  await db.schema.dropTable('organisation_invitations').execute();
  await db.schema.dropTable('organisation_members').execute();
  await db.schema.dropTable('organisations').execute();
}
