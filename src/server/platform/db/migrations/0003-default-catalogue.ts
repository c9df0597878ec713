import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// A fresh database gets a catalogue, so the portal is usable at once; administrators change it
// from the console afterwards. Runs once, like every migration: deleting plans later sticks.

const features = [
  ['ai_chat', 'AI chat', 'Conversations with the assistant', 'metered', 'month', 'messages'],
  [
    'document_analysis',
    'Document analysis',
    'Summaries and answers from your files',
    'metered',
    'month',
    'documents',
  ],
  [
    'code_assistant',
    'Code assistant',
    'Explains, reviews and writes code in your editor',
    'boolean',
    null,
    null,
  ],
  ['voice_commands', 'Voice commands', 'Talk to the assistant hands-free', 'boolean', null, null],
  ['offline_mode', 'Offline models', 'Run the local model without a connection', 'boolean', null, null],
  [
    'priority_support',
    'Priority support',
    'Answers from the team within one working day',
    'boolean',
    null,
    null,
  ],
] as const;

type Limits = Partial<Record<(typeof features)[number][0], number | null>>;

const plans: {
  code: string;
  name: string;
  description: string;
  price: number;
  interval: 'free' | 'month' | 'year' | 'lifetime';
  seats: number;
  limits: Limits;
}[] = [
  {
    code: 'base',
    name: 'Base',
    description: 'Try the assistant on one machine, free for as long as you like.',
    price: 0,
    interval: 'free',
    seats: 1,
    limits: { ai_chat: 100, document_analysis: 10 },
  },
  {
    code: 'pro-monthly',
    name: 'Pro',
    description: 'For daily work: generous limits, code and voice, on up to three machines.',
    price: 99_900,
    interval: 'month',
    seats: 3,
    limits: {
      ai_chat: 5000,
      document_analysis: 500,
      code_assistant: null,
      voice_commands: null,
      offline_mode: null,
    },
  },
  {
    code: 'pro-yearly',
    name: 'Pro (yearly)',
    description: 'Everything in Pro, two months free.',
    price: 999_000,
    interval: 'year',
    seats: 3,
    limits: {
      ai_chat: 5000,
      document_analysis: 500,
      code_assistant: null,
      voice_commands: null,
      offline_mode: null,
    },
  },
  {
    code: 'team-yearly',
    name: 'Team',
    description: 'Unlimited chat for a team of up to ten machines, with priority support.',
    price: 4_999_000,
    interval: 'year',
    seats: 10,
    limits: {
      ai_chat: null,
      document_analysis: 5000,
      code_assistant: null,
      voice_commands: null,
      offline_mode: null,
      priority_support: null,
    },
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const now = new Date().toISOString();
  const featureIds = new Map<string, string>();
  for (const [key, name, description, kind, period, unit] of features) {
    const id = randomUUID();
    featureIds.set(key, id);
    await sql`insert into features (id, key, name, description, kind, period, unit, created_at, updated_at)
      values (${id}, ${key}, ${name}, ${description}, ${kind}, ${period}, ${unit}, ${now}, ${now})`.execute(
      db,
    );
  }
  for (const [order, plan] of plans.entries()) {
    const id = randomUUID();
    await sql`insert into plans (id, code, name, description, price_minor, currency, billing_interval,
        max_activations, is_public, is_active, sort_order, archived_at, created_at, updated_at)
      values (${id}, ${plan.code}, ${plan.name}, ${plan.description}, ${plan.price}, ${'INR'}, ${plan.interval},
        ${plan.seats}, ${1}, ${1}, ${order * 10}, ${null}, ${now}, ${now})`.execute(db);
    for (const [key, limit] of Object.entries(plan.limits)) {
      await sql`insert into plan_features (plan_id, feature_id, limit_value)
        values (${id}, ${featureIds.get(key)}, ${limit ?? null})`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from plan_features`.execute(db);
  await sql`delete from plans where code in (${sql.join(plans.map((plan) => plan.code))})`.execute(db);
  await sql`delete from features where key in (${sql.join(features.map(([key]) => key))})`.execute(db);
}
