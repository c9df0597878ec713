import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, CopyButton, DataList, Group, Stack, Text, Title } from '@mantine/core';
import { skipToken } from '@reduxjs/toolkit/query/react';
import type { SecurityEvent } from '../../../../../shared/api/admin';
import { StatusBadge } from '../../../components/data/status-badge';
import { DetailDrawer, DrawerField as Field, NoValue } from '../../../components/drawer/detail-drawer';
import { useGetSecurityEventQuery } from '../admin-endpoints';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';
import { failureOf } from '../query-answer';
import { eventTypeLabel, SEVERITY_LABELS } from './security-event-types';

/** An event's moment in full, as the language shown writes it. */
const exactTime = {
  format: (date: Date) =>
    new Intl.DateTimeFormat(formattingLocale(), { dateStyle: 'full', timeStyle: 'medium' }).format(date),
};
/** An event's moment, as the language shown writes it. */
export const eventTime = {
  format: (date: Date) =>
    new Intl.DateTimeFormat(formattingLocale(), { dateStyle: 'medium', timeStyle: 'medium' }).format(date),
};

export function SeverityBadge({ severity }: { severity: SecurityEvent['severity'] }) {
  const { i18n } = useLingui();
  const { label, tone } = SEVERITY_LABELS[severity];
  return (
    <StatusBadge tone={tone} size="md">
      {i18n._(label)}
    </StatusBadge>
  );
}

const none = <NoValue />;

/** Who an event names by e-mail; an id without an e-mail is an account deleted since; null: nobody. */
export const personName = (email: string | null, id: string | null) =>
  email ?? (id ? t`Deleted account` : null);

/** A person of the event: the e-mail (or what is left of it) and the account id under it. */
function Person({ email, id }: { email: string | null; id: string | null }) {
  return (
    <>
      {personName(email, id) ?? none}
      {id ? (
        <Text size="xs" c="dimmed" ff="monospace">
          {id}
        </Text>
      ) : null}
    </>
  );
}

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
  // The list's row is the whole event: only an event from a link is read on its own.
  const { t, i18n } = useLingui();
  const answer = useGetSecurityEventQuery(id && !known ? id : skipToken);
  const event = known ?? answer.currentData;
  const error = !known ? failureOf(answer) : null;
  const json = event?.details ? JSON.stringify(event.details, null, 2) : null;

  return (
    <DetailDrawer
      opened={id !== null}
      onClose={onClose}
      size="lg"
      fullScreen="(max-width: 40em)"
      title={event ? eventTypeLabel(event.type) : t`Security event`}
      closeLabel={t`Close event details`}
      error={error}
      errorHint={t`The event could not be loaded. It may have been removed, or the link is wrong.`}
      loading={!event && t`Loading the event`}
    >
      {event && (
        <Stack gap="lg">
          <Group gap="sm">
            <SeverityBadge severity={event.severity} />
            <Text size="sm" c="dimmed">
              {exactTime.format(new Date(event.created_at))}
            </Text>
          </Group>
          <DataList labelWidth={110} size="sm" withDivider>
            <Field label={t`Type`}>
              {eventTypeLabel(event.type)}{' '}
              <Code fz="xs" ml={4}>
                {event.type}
              </Code>
            </Field>
            <Field label={t`Severity`}>{i18n._(SEVERITY_LABELS[event.severity].label)}</Field>
            <Field label={t`Time`}>
              <time dateTime={event.created_at}>{eventTime.format(new Date(event.created_at))}</time>
            </Field>
            <Field label={t`User`}>
              <Person email={event.user_email} id={event.user_id} />
            </Field>
            <Field label={t`Actor`}>
              <Person email={event.actor_email} id={event.actor_id} />
            </Field>
            <Field label={t`IP address`}>{event.ip ?? none}</Field>
            <Field label={t`User agent`}>{event.user_agent ?? none}</Field>
            <Field label={t`Event id`}>
              <Text size="xs" ff="monospace">
                {event.id}
              </Text>
            </Field>
          </DataList>

          <Stack gap="xs" component="section" aria-labelledby="event-metadata">
            <Group justify="space-between" gap="sm">
              <Title order={3} size="h5" id="event-metadata">
                <Trans>Metadata</Trans>
              </Title>
              {json ? (
                <CopyButton value={json}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="light" onClick={copy}>
                      {copied ? t`Copied` : t`Copy JSON`}
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
                <Trans>This event carries no metadata.</Trans>
              </Text>
            )}
          </Stack>

          {event.user_id ? (
            <Group>
              <Button variant="default" onClick={() => onFilterUser(event.user_id as string)}>
                <Trans>Show this user’s events</Trans>
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </DetailDrawer>
  );
}
