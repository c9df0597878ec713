import type { Kysely } from 'kysely';

// Second factors and step-up: TOTP authenticators, recovery codes, passkeys (WebAuthn
// credentials), the short-lived challenges of sign-ins and ceremonies, and when each session last
// proved who it is.

export async function up(db: Kysely<unknown>): Promise<void> {
  // One authenticator app per account. The secret is kept encrypted (AES-GCM under a server key);
  // `confirmed_at` is null while enrolment waits for its first code.
  await db.schema
    .createTable('totp_authenticators')
    .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_ciphertext', 'text', (column) => column.notNull())
    .addColumn('confirmed_at', 'text')
    // The last 30-second step a code was accepted for: a code of that step or an earlier one is a replay.
    .addColumn('last_used_step', 'integer')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();

  // Ten single-use codes per set, stored hashed; a new set replaces the old one.
  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').column('user_id').execute();

  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    // The credential id and COSE public key as base64url, as WebAuthn gives them.
    .addColumn('credential_id', 'text', (column) => column.notNull().unique())
    .addColumn('public_key', 'text', (column) => column.notNull())
    .addColumn('sign_count', 'integer', (column) => column.notNull().defaultTo(0))
    // JSON array of the authenticator's transports ("internal", "usb", "hybrid", …).
    .addColumn('transports', 'text')
    .addColumn('device_type', 'text', (column) => column.notNull())
    .addColumn('backed_up', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute();

  // A challenge lives a few minutes and is used once: a sign-in waiting for its second factor,
  // a WebAuthn ceremony's random challenge. Only the hash of what the client holds is kept.
  await db.schema
    .createTable('auth_challenges')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (column) => column.unique())
    .addColumn('webauthn_challenge', 'text')
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('auth_challenges_expiry_idx')
    .on('auth_challenges')
    .column('expires_at')
    .execute();

  // When the session's sign-in happened and when it last proved itself again (step-up), and how:
  // sensitive changes need one of them to be recent.
  await db.schema.alterTable('refresh_token_families').addColumn('authenticated_at', 'text').execute();
  await db.schema.alterTable('refresh_token_families').addColumn('stepped_up_at', 'text').execute();
  // JSON array of the methods of the sign-in ("pwd", "otp", "webauthn"), as in RFC 8176's amr.
  await db.schema.alterTable('refresh_token_families').addColumn('methods', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_token_families').dropColumn('methods').execute();
  await db.schema.alterTable('refresh_token_families').dropColumn('stepped_up_at').execute();
  await db.schema.alterTable('refresh_token_families').dropColumn('authenticated_at').execute();
  await db.schema.dropTable('auth_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('totp_authenticators').execute();
}
