import {
  Alert,
  Button,
  Code,
  CopyButton,
  DataList,
  Drawer,
  Group,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { SecurityEvent } from '../../../../../shared/api/admin';
import { adminMessages } from '../../../../../shared/messages';
import { pathWith } from '../../../../../shared/routes';
import { AlertIcon } from '../../../components/brand/icons';
import { StatusBadge } from '../../../components/data/status-badge';
import { adminPaths } from '../admin-paths';
import { adminRead } from './admin-read';
import { eventTypeLabel, SEVERITY_LABELS } from './security-event-types';

const exactTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' });
export const eventTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** GET /admin/security-events/{id} (cached 60 s). */
export const fetchSecurityEvent = (id: string) =>
  adminRead<SecurityEvent>(
    pathWith(adminPaths.securityEvent, { id }),
    undefined,
    adminMessages.fetchSecurityEventsFailed,
  );

export function SeverityBadge({ severity }: { severity: SecurityEvent['severity'] }) {
  const { label, tone } = SEVERITY_LABELS[severity];
  return (
    <StatusBadge tone={tone} size="md">
      {label}
    </StatusBadge>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}

const none = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

export interface SecurityEventDrawerProps {
  /** The event id in the URL, or null when closed. */
  id: string | null;
  /** The row the list already holds, shown at once while (or instead of) loading it. */
  known: SecurityEvent | undefined;
  onClose: () => void;
  /** Narrows the list to the events of one account. */
  onFilterUser: (userId: string) => void;
}

/** Every field of one security event, its details as pretty-printed JSON. */
export function SecurityEventDrawer({ id, known, onClose, onFilterUser }: SecurityEventDrawerProps) {
  const phone = useMediaQuery('(max-width: 40em)');
  const [loaded, setLoaded] = useState<{ id: string; event?: SecurityEvent; error?: string } | null>(null);

  useEffect(() => {
    if (!id || known) return;
    let live = true;
    fetchSecurityEvent(id).then(
      (event) => live && setLoaded({ id, event }),
      (error: unknown) =>
        live && setLoaded({ id, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [id, known]);

  const event = known ?? (loaded?.id === id ? loaded?.event : undefined);
  const error = !known && loaded?.id === id ? loaded?.error : undefined;
  const json = event?.details ? JSON.stringify(event.details, null, 2) : null;

  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'lg'}
      title={event ? eventTypeLabel(event.type) : 'Security event'}
      closeButtonProps={{ 'aria-label': 'Close event details' }}
      // A wide table inside scrolls in its own box; it must not widen the drawer past the screen.
      styles={{ content: { minWidth: 0 } }}
    >
      {error ? (
        <Alert color="red" icon={<AlertIcon />} title={error} role="alert">
          The event could not be loaded. It may have been removed, or the link is wrong.
        </Alert>
      ) : !event ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading the event">
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} height={16} />
          ))}
        </Stack>
      ) : (
        <Stack gap="lg">
          <Group gap="sm">
            <SeverityBadge severity={event.severity} />
            <Text size="sm" c="dimmed">
              {exactTime.format(new Date(event.created_at))}
            </Text>
          </Group>
          <DataList labelWidth={110} size="sm" withDivider>
            <Field label="Type">
              {eventTypeLabel(event.type)}{' '}
              <Code fz="xs" ml={4}>
                {event.type}
              </Code>
            </Field>
            <Field label="Severity">{SEVERITY_LABELS[event.severity].label}</Field>
            <Field label="Time">
              <time dateTime={event.created_at}>{eventTime.format(new Date(event.created_at))}</time>
            </Field>
            <Field label="User">
              {event.user_email ?? (event.user_id ? 'Deleted account' : none)}
              {event.user_id ? (
                <Text size="xs" c="dimmed" ff="monospace">
                  {event.user_id}
                </Text>
              ) : null}
            </Field>
            <Field label="Actor">
              {event.actor_email ?? (event.actor_id ? 'Deleted account' : none)}
              {event.actor_id ? (
                <Text size="xs" c="dimmed" ff="monospace">
                  {event.actor_id}
                </Text>
              ) : null}
            </Field>
            <Field label="IP address">{event.ip ?? none}</Field>
            <Field label="User agent">{event.user_agent ?? none}</Field>
            <Field label="Event id">
              <Text size="xs" ff="monospace">
                {event.id}
              </Text>
            </Field>
          </DataList>

          <Stack gap="xs" component="section" aria-labelledby="event-metadata">
            <Group justify="space-between" gap="sm">
              <Title order={3} size="h5" id="event-metadata">
                Metadata
              </Title>
              {json ? (
                <CopyButton value={json}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="light" onClick={copy}>
                      {copied ? 'Copied' : 'Copy JSON'}
                    </Button>
                  )}
                </CopyButton>
              ) : null}
            </Group>
            {json ? (
              <Code
                block
                fz="xs"
                data-testid="event-metadata"
                style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              >
                {json}
              </Code>
            ) : (
              <Text size="sm" c="dimmed">
                This event carries no metadata.
              </Text>
            )}
          </Stack>

          {event.user_id ? (
            <Group>
              <Button variant="default" onClick={() => onFilterUser(event.user_id as string)}>
                Show this user’s events
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </Drawer>
  );
}
