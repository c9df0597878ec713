// The outgoing webhooks' tables, kept apart from tables.ts so their change stays in one place.
export type WebhookTables = Record<never, never>;
