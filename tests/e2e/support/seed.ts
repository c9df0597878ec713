import { randomBytes, randomUUID, webcrypto } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Insertable } from 'kysely';
import type { TokenResponse } from '../../../src/shared/api/auth.js';
import { generateLicenseKey } from '../../../src/shared/license-key.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import type {
  FeaturesTable,
  LicensesTable,
  PaymentsTable,
  PlanRow,
  PlansTable,
  SecurityEventsTable,
  SecuritySeverity,
  NewUserRow,
} from '../../../src/server/platform/db/tables.js';
import { STRONG_PASSWORD, uniqueEmail, WEB_API_KEY } from '../../support/test-server.js';
import type { Credentials, PortalServer } from './server.js';

/** One API call in-process (no socket), as the web portal sends it; waits for the mail it queued to be sent. */
export async function callApi(
  server: PortalServer,
  request: { method?: InjectOptions['method']; path: string; token?: string; body?: unknown },
): Promise<LightMyRequestResponse> {
  const response = await server.app.inject({
    method: request.method ?? 'GET',
    url: `${API_BASE_PATH}${request.path}`,
    headers: {
      'x-api-key': WEB_API_KEY,
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
    },
    ...(request.body === undefined ? {} : { payload: request.body as InjectOptions['payload'] }),
  });
  await server.app.mailOutbox.drain();
  return response;
}

/** `callApi` that fails with the answer unless the status is 2xx, and returns the JSON body. */
export async function callApiOk<T>(server: PortalServer, request: Parameters<typeof callApi>[1]): Promise<T> {
  const response = await callApi(server, request);
  if (response.statusCode >= 300)
    throw new Error(`${request.method ?? 'GET'} ${request.path}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

/** An access token for the account (signs in through the API, not the form). */
export async function accessToken(server: PortalServer, credentials: Credentials): Promise<string> {
  const tokens = await callApiOk<TokenResponse>(server, {
    method: 'POST',
    path: '/auth/login/json',
    body: { email: credentials.email, password: credentials.password },
  });
  return tokens.access_token;
}

export const planByCode = (server: PortalServer, code: string): Promise<PlanRow> =>
  server.app.db.selectFrom('plans').selectAll().where('code', '=', code).executeTakeFirstOrThrow();

/** The seeded rows' search terms: each matches exactly one seeded row of its list (and its own rows elsewhere). */
export interface SeededLists {
  /** Rows written into each table. */
  count: number;
  /** Unique to this seeding, part of every seeded e-mail, code, key and detail. */
  tag: string;
  /** A term each list's search narrows to a few rows with. */
  searches: Record<'users' | 'licenses' | 'payments' | 'features' | 'packages' | 'security', string>;
  userIds: string[];
}

const SEVERITIES: readonly SecuritySeverity[] = ['info', 'warning', 'critical'];
const EVENT_TYPES = [
  'login_failed',
  'login_succeeded',
  'password_changed',
  'role_changed',
  'license_revoked',
];
const LICENSE_STATUSES: readonly LicensesTable['status'][] = ['active', 'active', 'suspended', 'revoked'];
const PAYMENT_STATUSES: readonly PaymentsTable['status'][] = ['paid', 'paid', 'failed', 'created'];
const MINUTE_MS = 60_000;
/** Rows per INSERT: well under SQLite's and PostgreSQL's limits on bound parameters. */
const BATCH = 200;

const padded = (index: number) => String(index).padStart(4, '0');

/** What makes a seeding repeatable (the screen baselines): a fixed tag and a seeded random source. */
export interface SeedOptions {
  tag?: string;
  random?: (bytes: Uint8Array) => Uint8Array;
}

/** A version 4 UUID from `fill`'s bytes. */
function uuidFrom(fill: (bytes: Uint8Array) => Uint8Array): string {
  const bytes = fill(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A repeatable stand-in for crypto's random bytes (mulberry32): the same seed, the same bytes. */
export function seededRandom(seed: number): (bytes: Uint8Array) => Uint8Array {
  let state = seed >>> 0;
  return (bytes) => {
    for (let index = 0; index < bytes.length; index += 1) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      bytes[index] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
    }
    return bytes;
  };
}

/**
 * Writes `count` (1 000 by default) rows straight into each table an admin list shows: users,
 * licenses (one per seeded user), payments, security events, features and plans (packages), in
 * one transaction with batched inserts (about a second). Seeded users cannot sign in; seeded
 * plans and features are not public, so the user screens and the public plans stay as they were.
 * Row `i` is created `i` minutes before now, so the newest-first lists start with row 0.
 */
export async function seedAdminLists(
  server: PortalServer,
  count = 1000,
  options: SeedOptions = {},
): Promise<SeededLists> {
  const tag = options.tag ?? `s${randomBytes(3).toString('hex')}`;
  const fill = options.random ?? ((bytes: Uint8Array) => webcrypto.getRandomValues(bytes));
  const newId = options.random ? () => uuidFrom(fill) : randomUUID;
  const now = server.clock.now().getTime();
  const createdAt = (index: number) => new Date(now - (index + 1) * MINUTE_MS).toISOString();
  const indexes = Array.from({ length: count }, (_, index) => index);
  const pro = await planByCode(server, 'pro-monthly');

  const users: NewUserRow[] = indexes.map((index) => ({
    id: newId(),
    email: `seed-user-${padded(index)}.${tag}@example.com`,
    password_hash: 'not-a-real-hash',
    role: 'user',
    status: index % 10 === 9 ? 'disabled' : 'active',
    full_name: `Seeded Person ${padded(index)}`,
    company: index % 3 === 0 ? `Company ${tag}` : null,
    preferences: '{}',
    email_verified_at: createdAt(index),
    password_changed_at: null,
    session_version: 0,
    created_at: createdAt(index),
    updated_at: createdAt(index),
  }));
  const licenses: Insertable<LicensesTable>[] = indexes.map((index) => ({
    id: newId(),
    license_key: generateLicenseKey(fill),
    user_id: users[index]?.id ?? '',
    plan_id: pro.id,
    subscription_id: null,
    status: LICENSE_STATUSES[index % LICENSE_STATUSES.length] ?? 'active',
    expires_at: new Date(now + (index + 1) * 86_400_000).toISOString(),
    max_activations: pro.max_activations,
    base_owner_id: null,
    metadata: null,
    revoked_reason: index % LICENSE_STATUSES.length === 3 ? 'Seeded: refunded' : null,
    revoked_at: index % LICENSE_STATUSES.length === 3 ? createdAt(index) : null,
    created_at: createdAt(index),
    updated_at: createdAt(index),
  }));
  const payments: Insertable<PaymentsTable>[] = indexes.map((index) => {
    const status = PAYMENT_STATUSES[index % PAYMENT_STATUSES.length] ?? 'paid';
    return {
      id: newId(),
      user_id: users[index]?.id ?? null,
      plan_id: pro.id,
      provider: 'sandbox',
      provider_order_id: `order_seed_${tag}_${padded(index)}`,
      provider_payment_id: status === 'created' ? null : `pay_seed_${tag}_${padded(index)}`,
      amount_minor: pro.price_minor,
      currency: pro.currency,
      status,
      license_id: status === 'paid' ? (licenses[index]?.id ?? null) : null,
      failure_reason: status === 'failed' ? 'Seeded: card declined' : null,
      created_at: createdAt(index),
      updated_at: createdAt(index),
      paid_at: status === 'paid' ? createdAt(index) : null,
    };
  });
  const events: SecurityEventsTable[] = indexes.map((index) => ({
    id: newId(),
    type: EVENT_TYPES[index % EVENT_TYPES.length] ?? 'login_failed',
    severity: SEVERITIES[index % SEVERITIES.length] ?? 'info',
    user_id: users[index]?.id ?? null,
    actor_id: null,
    ip: `10.${Math.floor(index / 250)}.${index % 250}.7`,
    user_agent: 'seed',
    details: JSON.stringify({ seed: `seed-event-${padded(index)}-${tag}` }),
    created_at: createdAt(index),
  }));
  const features: FeaturesTable[] = indexes.map((index) => ({
    id: newId(),
    key: `seed_feature_${padded(index)}_${tag}`,
    name: `Seeded feature ${padded(index)}`,
    description: `A feature written by the e2e seed ${tag}`,
    kind: index % 2 === 0 ? 'boolean' : 'metered',
    period: index % 2 === 0 ? null : 'month',
    unit: index % 2 === 0 ? null : 'units',
    created_at: createdAt(index),
    updated_at: createdAt(index),
  }));
  const plans: Insertable<PlansTable>[] = indexes.map((index) => ({
    id: newId(),
    code: `seed-plan-${padded(index)}-${tag}`,
    name: `Seeded package ${padded(index)}`,
    description: `A package written by the e2e seed ${tag}`,
    price_minor: 10_000 + index * 100,
    currency: 'INR',
    billing_interval: index % 2 === 0 ? 'month' : 'year',
    max_activations: 1 + (index % 5),
    // Hidden from the public catalogue: /purchase and the landing page keep showing the real plans.
    is_public: 0,
    is_active: index % 4 === 3 ? 0 : 1,
    sort_order: 1000 + index,
    archived_at: null,
    seat_based: 0,
    created_at: createdAt(index),
    updated_at: createdAt(index),
  }));

  const insertAll = async <Row>(rows: Row[], insert: (batch: Row[]) => Promise<unknown>) => {
    for (let start = 0; start < rows.length; start += BATCH) await insert(rows.slice(start, start + BATCH));
  };
  await server.app.db.transaction().execute(async (trx) => {
    await insertAll(users, (batch) => trx.insertInto('users').values(batch).execute());
    await insertAll(licenses, (batch) => trx.insertInto('licenses').values(batch).execute());
    await insertAll(payments, (batch) => trx.insertInto('payments').values(batch).execute());
    await insertAll(events, (batch) => trx.insertInto('security_events').values(batch).execute());
    await insertAll(features, (batch) => trx.insertInto('features').values(batch).execute());
    await insertAll(plans, (batch) => trx.insertInto('plans').values(batch).execute());
  });

  const row = 42 % count;
  return {
    count,
    tag,
    searches: {
      users: `seed-user-${padded(row)}.${tag}`,
      licenses: `seed-user-${padded(row)}.${tag}`,
      payments: `order_seed_${tag}_${padded(row)}`,
      features: `seed_feature_${padded(row)}_${tag}`,
      packages: `seed-plan-${padded(row)}-${tag}`,
      security: `seed-event-${padded(row)}-${tag}`,
    },
    userIds: users.map((user) => user.id),
  };
}

/** A customer whose screens have something to show. */
export interface SeededCustomer extends Credentials {
  id: string;
  fullName: string;
  /** Bought through the sandbox checkout: the paid Pro license. */
  licenseId: string;
  licenseKey: string;
  /** The machine the license is activated on. */
  hardwareId: string;
}

const DAY_MS = 86_400_000;

/**
 * A confirmed user who bought Pro through the sandbox checkout (a paid payment and its license),
 * activated it on one machine and used its metered features today and on earlier days, so the
 * dashboard, licenses, license detail and purchase screens show real data. Made through the API
 * as the portal and the desktop app would, except the earlier days' usage, written directly.
 */
export async function seedCustomer(
  server: PortalServer,
  options: { fullName?: string; email?: string } = {},
): Promise<SeededCustomer> {
  const fullName = options.fullName ?? 'Casey Customer';
  const credentials = await server.createUser({
    email: options.email ?? uniqueEmail('customer'),
    password: STRONG_PASSWORD,
    fullName,
  });
  const token = await accessToken(server, credentials);
  const user = await server.app.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', credentials.email)
    .executeTakeFirstOrThrow();

  const pro = await planByCode(server, 'pro-monthly');
  const order = await callApiOk<{ order_id: string }>(server, {
    method: 'POST',
    path: '/payments/razorpay/create-order',
    token,
    body: { plan_id: pro.id },
  });
  const paid = await callApiOk<Record<string, string>>(server, {
    method: 'POST',
    path: `/payments/sandbox/orders/${encodeURIComponent(order.order_id)}/complete`,
    token,
    body: { outcome: 'pay' },
  });
  const verified = await callApiOk<{ license: { license_id: string; license_key: string } }>(server, {
    method: 'POST',
    path: '/payments/razorpay/verify',
    token,
    body: paid,
  });
  const { license_id: licenseId, license_key: licenseKey } = verified.license;

  const hardwareId = `hw-workstation-${randomBytes(6).toString('hex')}`;
  await callApiOk(server, {
    method: 'POST',
    path: '/licenses/activate',
    token,
    body: {
      license_key: licenseKey,
      hardware_id: hardwareId,
      device_name: 'Studio workstation',
      platform: 'linux',
      app_version: '1.4.2',
    },
  });
  for (const [featureId, usageAmount] of [
    ['ai_chat', 37],
    ['document_analysis', 4],
  ] as const)
    await callApiOk(server, {
      method: 'POST',
      path: `/licenses/${licenseId}/usage`,
      token,
      body: { featureId, usageAmount },
    });

  // Earlier days, for the usage-over-time charts (history only: this period's counters stay as tracked).
  const features = await server.app.db
    .selectFrom('features')
    .select(['id', 'key'])
    .where('key', 'in', ['ai_chat', 'document_analysis'])
    .execute();
  const now = server.clock.now().getTime();
  await server.app.db
    .insertInto('usage_events')
    .values(
      Array.from({ length: 12 }, (_, day) => day + 1).flatMap((daysAgo) =>
        features.map((feature) => ({
          id: randomUUID(),
          license_id: licenseId,
          feature_id: feature.id,
          amount: feature.key === 'ai_chat' ? 10 + ((daysAgo * 7) % 23) : 1 + (daysAgo % 3),
          data: '{}',
          created_at: new Date(now - daysAgo * DAY_MS).toISOString(),
        })),
      ),
    )
    .execute();

  return { ...credentials, id: user.id, fullName, licenseId, licenseKey, hardwareId };
}

/**
 * Subscribes the customer to `planCode` in the sandbox through the API, as the portal's checkout
 * does: open the subscription, pay in the sandbox checkout, verify. Returns the subscription's id.
 */
export async function seedSubscription(
  server: PortalServer,
  customer: Credentials,
  planCode: string,
): Promise<string> {
  const token = await accessToken(server, customer);
  const plan = await planByCode(server, planCode);
  const opened = await callApiOk<{ subscription_id: string }>(server, {
    method: 'POST',
    path: '/subscriptions',
    token,
    body: { plan_id: plan.id },
  });
  const paid = await callApiOk<Record<string, string>>(server, {
    method: 'POST',
    path: `/payments/sandbox/subscriptions/${encodeURIComponent(opened.subscription_id)}/complete`,
    token,
    body: { outcome: 'pay' },
  });
  const verified = await callApiOk<{ subscription: { id: string } }>(server, {
    method: 'POST',
    path: '/subscriptions/verify',
    token,
    body: paid,
  });
  return verified.subscription.id;
}

/** An organisation named `name` whose only member is its owner (the account of `ownerEmail`): its id. */
export async function seedOrganisation(
  server: PortalServer,
  ownerEmail: string,
  name: string,
): Promise<string> {
  const db = server.app.db;
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ownerEmail)
    .executeTakeFirstOrThrow();
  const organisationId = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto('organisations')
    .values({
      id: organisationId,
      name,
      billing_details: null,
      created_by: owner.id,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('organisation_members')
    .values({
      organisation_id: organisationId,
      user_id: owner.id,
      role: 'owner',
      seat_assigned_at: null,
      joined_at: now,
    })
    .execute();
  return organisationId;
}
