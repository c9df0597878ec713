// The API tokens' tables, kept apart from tables.ts so their change stays in one place.
export type ApiTokenTables = Record<never, never>;
