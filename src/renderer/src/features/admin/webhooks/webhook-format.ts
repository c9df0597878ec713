import type { WebhookDelivery, WebhookEndpoint } from '../../../../../shared/api/webhooks';
import type { StatusTone } from '../../../components/data/status-badge';

/** An endpoint's state as the list shows it. */
export function endpointState(endpoint: WebhookEndpoint): { label: string; tone: StatusTone } {
  if (!endpoint.enabled)
    return endpoint.disabled_reason?.startsWith('Disabled automatically')
      ? { label: 'Disabled (failing)', tone: 'negative' }
      : { label: 'Disabled', tone: 'neutral' };
  if (endpoint.consecutive_failures > 0 || endpoint.failing_since)
    return { label: 'Failing', tone: 'caution' };
  return { label: 'Enabled', tone: 'positive' };
}

export const DELIVERY_STATES: Record<WebhookDelivery['status'], { label: string; tone: StatusTone }> = {
  pending: { label: 'Retrying', tone: 'caution' },
  succeeded: { label: 'Delivered', tone: 'positive' },
  failed: { label: 'Failed', tone: 'negative' },
};

/** A delivery that has not been tried yet reads as queued rather than retrying. */
export const deliveryState = (delivery: WebhookDelivery) =>
  delivery.status === 'pending' && delivery.attempts === 0
    ? { label: 'Queued', tone: 'info' as const }
    : DELIVERY_STATES[delivery.status];

export const formatMoment = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export const formatDay = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

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
