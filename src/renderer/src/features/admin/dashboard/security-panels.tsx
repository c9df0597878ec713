import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { DashboardStats, SecurityEvent } from '../../../../../shared/api/admin';
import { portalPaths } from '../../../../../shared/routes';
import { ChartPanel } from '../../../components/charts/chart-panel';
import { SeverityBars } from '../../../components/charts/lazy-charts';
import { StatusBadge, type StatusTone } from '../../../components/data/status-badge';
import { formatDateTime, formatRelative } from '../../licenses';
import { eventTypeLabel } from '../security/security-event-types';
import { formatCount, listSentence, SEVERITY_CHART, severityData } from './dashboard-data';
import classes from './dashboard.module.css';

const SEVERITY_TONES: Record<SecurityEvent['severity'], StatusTone> = {
  critical: 'negative',
  warning: 'caution',
  info: 'info',
};

/** Security events of the last 30 days per severity. */
export function SeverityPanel({ security }: { security: DashboardStats['security'] }) {
  const { t } = useLingui();
  const data = severityData(security.by_severity);
  const total = data.reduce((sum, item) => sum + item.value, 0);
  const parts = listSentence(data.map((item) => item.counted));
  const summary =
    total === 0
      ? t`No security events in the last 30 days.`
      : t`${plural(total, { one: '# event in the last 30 days', other: '# events in the last 30 days' })}: ${parts}.`;
  return (
    <ChartPanel
      title={t`Security events by severity`}
      summary={summary}
      height={120}
      table={{
        headers: [t`Severity`, t`Events`],
        rows: data.map((item) => [item.name, formatCount(item.value)]),
      }}
      footer={
        <Anchor component={Link} to={portalPaths.adminSecurity} size="sm" fw={600} mt="auto">
          <Trans>Review security events</Trans>
        </Anchor>
      }
    >
      <SeverityBars data={data} />
    </ChartPanel>
  );
}

/** Who an event is about, and who did it when that was someone else (an administrator). */
function eventPeople(event: SecurityEvent): string {
  const subject = event.user_email ?? (event.user_id ? t`a deleted account` : null);
  const actor = event.actor_email && event.actor_email !== event.user_email ? event.actor_email : null;
  if (subject && actor) return t`${subject}, by ${actor}`;
  return subject ?? actor ?? t`No account`;
}

/** The ten newest security events, linking to the full list. */
export function RecentEventsPanel({ events }: { events: SecurityEvent[] }) {
  const { i18n } = useLingui();
  const titleId = useId();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={titleId} h="100%">
      <Stack gap="sm" h="100%">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h4" id={titleId}>
            <Trans>Recent security events</Trans>
          </Title>
          <Anchor component={Link} to={portalPaths.adminSecurity} size="sm" fw={600}>
            <Trans>View all security events</Trans>
          </Anchor>
        </Group>
        {events.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>
              Nothing yet. Sign-ins, password changes and administrators’ changes are recorded here.
            </Trans>
          </Text>
        ) : (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-labelledby={titleId}>
            {events.map((event) => (
              <li key={event.id} className={classes.eventRow}>
                <Group justify="space-between" gap="xs" py="xs" wrap="nowrap" align="flex-start">
                  <Stack gap={2} miw={0}>
                    <Text size="sm" fw={600}>
                      {eventTypeLabel(event.type)}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {eventPeople(event)}
                      {event.ip ? ` · ${event.ip}` : ''}
                    </Text>
                  </Stack>
                  <Stack gap={4} align="flex-end" style={{ flex: 'none' }}>
                    <StatusBadge tone={SEVERITY_TONES[event.severity]} size="sm">
                      {i18n._(SEVERITY_CHART[event.severity].label)}
                    </StatusBadge>
                    <Text
                      size="xs"
                      c="dimmed"
                      component="time"
                      dateTime={event.created_at}
                      title={formatDateTime(event.created_at)}
                    >
                      {formatRelative(event.created_at)}
                    </Text>
                  </Stack>
                </Group>
              </li>
            ))}
          </ul>
        )}
      </Stack>
    </Paper>
  );
}
