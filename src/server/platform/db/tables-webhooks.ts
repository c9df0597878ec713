import type { Generated, Insertable, Selectable } from 'kysely';

// The outgoing webhooks' tables, kept apart from tables.ts so their change stays in one place.
// See migrations/0018-webhooks.ts for what each column means.

export interface WebhookEndpointsTable {
  id: string;
  url: string;
  description: string;
  /** JSON array of event types. */
  event_types: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  consecutive_failures: number;
  failing_since: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

export interface WebhookEventsTable {
  id: string;
  type: string;
  payload: string;
  created_at: string;
  /** The request that caused the event (see migration 0037); its deliveries carry its id and trace. */
  request_id: Generated<string | null>;
  traceparent: Generated<string | null>;
}
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type NewWebhookEvent = Insertable<WebhookEventsTable>;

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  redelivery_of: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
}
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  url: string;
  request_headers: string;
  request_body: string;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  started_at: string;
  next_attempt_at: string | null;
}
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
