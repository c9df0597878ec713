import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { WebhookDelivery, WebhookEndpoint } from '../../../../../shared/api/webhooks';
import type { StatusTone } from '../../../components/data/status-badge';
import { dateTimeFormat } from '../../../lib/date-format';

/** What the delivery worker writes when it turns off an endpoint that keeps failing. */
const AUTOMATIC_DISABLING = /^Disabled automatically after (\d+) failed deliveries in a row$/;

/** An endpoint's state as the list shows it. */
export function endpointState(endpoint: WebhookEndpoint): { label: MessageDescriptor; tone: StatusTone } {
  if (!endpoint.enabled)
    return endpoint.disabled_reason && AUTOMATIC_DISABLING.test(endpoint.disabled_reason)
      ? { label: msg`Disabled (failing)`, tone: 'negative' }
      : { label: msg`Disabled`, tone: 'neutral' };
  if (endpoint.consecutive_failures > 0 || endpoint.failing_since)
    return { label: msg`Failing`, tone: 'caution' };
  return { label: msg`Enabled`, tone: 'positive' };
}

export const DELIVERY_STATES: Record<
  WebhookDelivery['status'],
  { label: MessageDescriptor; tone: StatusTone }
> = {
  pending: { label: msg`Retrying`, tone: 'caution' },
  succeeded: { label: msg`Delivered`, tone: 'positive' },
  failed: { label: msg`Failed`, tone: 'negative' },
};

/** A delivery that has not been tried yet reads as queued rather than retrying. */
export const deliveryState = (delivery: WebhookDelivery) =>
  delivery.status === 'pending' && delivery.attempts === 0
    ? { label: msg`Queued`, tone: 'info' as const }
    : DELIVERY_STATES[delivery.status];

/** A moment and a day, in the language shown. */
export const formatMoment = (iso: string) =>
  dateTimeFormat({ dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));

export const formatDay = (iso: string) => dateTimeFormat({ dateStyle: 'medium' }).format(new Date(iso));

/**
 * Why an endpoint is off: the worker's own reason in the language shown, any other as it was
 * written.
 */
export function disabledReason(reason: string): string {
  const automatic = AUTOMATIC_DISABLING.exec(reason);
  if (!automatic) return reason;
  const failures = Number(automatic[1]);
  return plural(failures, {
    one: 'Disabled automatically after # failed delivery in a row',
    other: 'Disabled automatically after # failed deliveries in a row',
  });
}

/** Pretty JSON when the text is JSON, else the text as it came. */
export function prettyBody(text: string | null): string {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export const headerLines = (headers: Record<string, string> | null) =>
  headers
    ? Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')
    : '';
