import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Code, DataList, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type {
  AdminSubscription,
  AdminSubscriptionDetail,
} from '../../../../../shared/api/admin-subscriptions';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon } from '../../../components/brand/icons';
import { PaymentStatusBadge, SandboxBadge } from '../../../components/data/payment-status-badge';
import { DetailDrawer, DrawerField as Field, NoValue } from '../../../components/drawer/detail-drawer';
import { formatAmount } from '../../../lib/format-money';
import { InvoiceTable } from '../../invoices';
import { paymentMethodText } from '../../subscriptions';
import { paymentTime, providerLabel } from '../payments/payment-labels';
import { failureOf } from '../query-answer';
import { useGetAdminSubscriptionQuery } from './admin-subscriptions-endpoints';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';
import { type PauseAction, PauseSubscriptionDialog } from './pause-subscription-dialog';
import { intervalLabel, periodDate, SubscriptionStatusBadge } from './subscription-labels';

const none = <NoValue />;

const money = (amount: number, currency: string) => `${formatAmount(amount, currency)} ${currency}`;

/** The payments screen with this charge's drawer open: its refunds and the refund dialog are there. */
const paymentLink = (paymentId: string) =>
  `${portalPaths.adminPayments}?${new URLSearchParams({ payment: paymentId })}`;

/** Each charge of the subscription, newest first, with the way to refund it. */
function Charges({ subscription }: { subscription: AdminSubscriptionDetail }) {
  const { t } = useLingui();
  if (subscription.charges.length === 0)
    return (
      <Text size="sm" c="dimmed">
        <Trans>No charge yet: the checkout was never paid.</Trans>
      </Text>
    );
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {subscription.charges.map((charge) => {
        const when = paymentTime(charge.created_at);
        return (
          <Paper component="li" key={charge.id} withBorder radius="md" p="sm">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Stack gap={2}>
                <Text fw={600} size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {money(charge.amount, charge.currency)}
                </Text>
                <Text size="xs" c="dimmed">
                  <time dateTime={charge.paid_at ?? charge.updated_at}>
                    {paymentTime(charge.paid_at ?? charge.updated_at)}
                  </time>
                </Text>
              </Stack>
              <PaymentStatusBadge payment={{ ...charge, sandbox: false }} />
            </Group>
            {charge.status === 'failed' && charge.failure_reason ? (
              <Text size="xs" c="dimmed" mt={4}>
                {charge.failure_reason}
              </Text>
            ) : null}
            <Anchor
              component={Link}
              to={paymentLink(charge.id)}
              size="sm"
              fw={600}
              mt={6}
              display="inline-block"
              // The visible words, then which charge: every card has such a link.
              aria-label={
                charge.status === 'paid'
                  ? t`Refund or view the payment of ${when}`
                  : t`View the payment of ${when}`
              }
            >
              {charge.status === 'paid' ? t`Refund or view the payment` : t`View the payment`}
            </Anchor>
          </Paper>
        );
      })}
    </Stack>
  );
}

/** "2 failed attempts. The license is suspended on … unless a payment succeeds." */
function GraceNotice({ attempts, graceEndsAt }: { attempts: number; graceEndsAt: string }) {
  const { t } = useLingui();
  const when = paymentTime(graceEndsAt);
  return t`${plural(attempts, { one: '# failed attempt.', other: '# failed attempts.' })} The license is suspended on ${when} unless a payment succeeds.`;
}

function pausedUntil(resumesAt: string): string {
  const date = periodDate(resumesAt);
  return t`Paused until ${date}, when it resumes by itself and the next period is charged.`;
}

/** "Pauses on 1 Dec 2026 for 2 months, until 1 Feb 2027." */
function plannedPause(pause: NonNullable<AdminSubscription['pause']>, interval: 'month' | 'year'): string {
  const starts = periodDate(pause.starts_at);
  const resumes = periodDate(pause.resumes_at);
  const count = pause.periods;
  return interval === 'month'
    ? t`Pauses on ${starts} for ${plural(count, { one: '# month', other: '# months' })}, until ${resumes}.`
    : t`Pauses on ${starts} for ${plural(count, { one: '# year', other: '# years' })}, until ${resumes}.`;
}

const onDate = (when: string) => t`on ${when}`;

const refundedOnCanceling = (amount: string) => t`${amount} refunded on canceling`;

export interface SubscriptionDrawerProps {
  /** The subscription id in the URL, or null when closed. */
  id: string | null;
  /** The list's row of it, shown at once while the full record loads. */
  known: AdminSubscription | undefined;
  onClose: () => void;
}

/** One subscription: plan, customer, period and next charge, its charges, invoices and credit notes; cancel. */
export function SubscriptionDrawer({ id, known, onClose }: SubscriptionDrawerProps) {
  const { t } = useLingui();
  const answer = useGetAdminSubscriptionQuery(id ?? skipToken);
  const detail = answer.currentData?.id === id ? answer.currentData : undefined;
  const subscription: AdminSubscription | undefined = detail ?? known;
  const error = !subscription ? failureOf(answer) : null;
  const [cancelling, setCancelling] = useState<AdminSubscription | null>(null);
  const [pausing, setPausing] = useState<{ subscription: AdminSubscription; action: PauseAction } | null>(
    null,
  );
  const live = subscription
    ? subscription.status === 'active' ||
      subscription.status === 'past_due' ||
      subscription.status === 'suspended' ||
      subscription.status === 'paused'
    : false;
  // What the server would take: a pause of an active, paid-up subscription with none planned.
  const pausable =
    subscription?.status === 'active' &&
    !subscription.cancel_at_period_end &&
    subscription.pause === null &&
    subscription.license_id !== null &&
    subscription.current_period_end !== null;
  const planned = subscription?.status === 'active' && subscription.pause !== null;

  return (
    <DetailDrawer
      opened={id !== null}
      onClose={onClose}
      size="lg"
      fullScreen="(max-width: 40em)"
      title={t`Subscription details`}
      closeLabel={t`Close subscription details`}
      error={error}
      errorHint={t`The subscription could not be loaded. The link may be wrong.`}
      loading={!subscription && t`Loading the subscription`}
    >
      {subscription && (
        <Stack gap="lg">
          <Stack gap={6}>
            <Text fz={24} fw={700} lh={1.2}>
              {subscription.plan.name}
            </Text>
            <Group gap="sm">
              <SubscriptionStatusBadge subscription={subscription} />
              {subscription.sandbox ? <SandboxBadge /> : null}
            </Group>
            <Text size="sm" c="dimmed">
              {money(subscription.plan.price_minor, subscription.plan.currency)} ·{' '}
              {intervalLabel(subscription.plan.billing_interval)}
            </Text>
          </Stack>

          {subscription.status === 'past_due' && subscription.grace_ends_at ? (
            <Alert color="yellow" variant="light" icon={<AlertIcon />} title={t`Payment failed`}>
              <GraceNotice attempts={subscription.failed_attempts} graceEndsAt={subscription.grace_ends_at} />
            </Alert>
          ) : null}
          {subscription.status === 'paused' ? (
            <Alert color="blue" variant="light" icon={<AlertIcon />} title={t`Paused`}>
              {subscription.pause ? `${pausedUntil(subscription.pause.resumes_at)} ` : ''}
              <Trans>Nothing is charged meanwhile and the license reads paused.</Trans>
            </Alert>
          ) : null}
          {planned && subscription.pause ? (
            <Alert color="blue" variant="light" icon={<AlertIcon />} title={t`Pause planned`}>
              {plannedPause(subscription.pause, subscription.plan.billing_interval)}
            </Alert>
          ) : null}
          {subscription.status === 'suspended' ? (
            <Alert color="red" variant="light" icon={<AlertIcon />} title={t`Suspended`}>
              <Trans>The grace period ended unpaid; the license is suspended until a payment succeeds.</Trans>
            </Alert>
          ) : null}

          <DataList labelWidth={130} size="sm" withDivider>
            <Field label={t`Customer`}>
              {subscription.user_email ? (
                <Anchor
                  component={Link}
                  to={`${portalPaths.adminUsers}?${new URLSearchParams({ search: subscription.user_email })}`}
                  size="sm"
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {subscription.user_email}
                </Anchor>
              ) : (
                t`Deleted account`
              )}
            </Field>
            <Field label={t`Current period`}>
              {subscription.current_period_start && subscription.current_period_end
                ? `${periodDate(subscription.current_period_start)} – ${periodDate(subscription.current_period_end)}`
                : none}
            </Field>
            <Field label={t`Next charge`}>
              {subscription.next_charge ? (
                <>
                  {money(subscription.next_charge.amount_minor, subscription.next_charge.currency)}
                  <Text size="xs" c="dimmed">
                    {onDate(paymentTime(subscription.next_charge.at))}
                  </Text>
                </>
              ) : (
                <Text span size="sm" c="dimmed">
                  {subscription.cancel_at_period_end ? t`None: canceled at period end` : t`None`}
                </Text>
              )}
            </Field>
            <Field label={t`Payment method`}>
              {subscription.payment_method ? paymentMethodText(subscription.payment_method) : none}
            </Field>
            <Field label={t`Provider`}>
              {providerLabel(subscription.provider)}
              <Code fz="xs" display="block" mt={2} style={{ overflowWrap: 'anywhere' }}>
                {subscription.provider_subscription_id}
              </Code>
            </Field>
            <Field label={t`Credit kept`}>
              {subscription.credit_minor > 0 ? (
                <>
                  {money(subscription.credit_minor, subscription.plan.currency)}
                  <Text size="xs" c="dimmed">
                    {subscription.status === 'cancelled' || subscription.cancel_at_period_end
                      ? t`Not refunded automatically`
                      : refundedOnCanceling(
                          money(subscription.cancel_credit_refund_minor, subscription.plan.currency),
                        )}
                  </Text>
                </>
              ) : (
                none
              )}
            </Field>
            <Field label={t`Started`}>{paymentTime(subscription.created_at)}</Field>
            {subscription.cancel_requested_at ? (
              <Field label={t`Cancel asked`}>{paymentTime(subscription.cancel_requested_at)}</Field>
            ) : null}
            {subscription.ended_at ? (
              <Field label={t`Ended`}>{paymentTime(subscription.ended_at)}</Field>
            ) : null}
            <Field label={t`License`}>
              {subscription.license_id ? (
                <Anchor
                  component={Link}
                  to={`${portalPaths.adminLicenses}?${new URLSearchParams({ userId: subscription.user_id ?? '' })}`}
                  size="sm"
                >
                  <Trans>Open the customer’s licenses</Trans>
                </Anchor>
              ) : (
                none
              )}
            </Field>
          </DataList>

          {live ? (
            <Group>
              {pausable ? (
                <Button variant="default" onClick={() => setPausing({ subscription, action: 'pause' })}>
                  <Trans>Pause…</Trans>
                </Button>
              ) : null}
              {subscription.status === 'paused' || planned ? (
                <Button variant="default" onClick={() => setPausing({ subscription, action: 'resume' })}>
                  {planned ? t`Withdraw the pause…` : t`Resume now…`}
                </Button>
              ) : null}
              <Button variant="default" color="red" onClick={() => setCancelling(subscription)}>
                <Trans>Cancel subscription…</Trans>
              </Button>
            </Group>
          ) : null}

          <Stack gap="sm" component="section" aria-labelledby="subscription-charges-title">
            <Title order={3} size="h5" id="subscription-charges-title">
              <Trans>Charges</Trans>
            </Title>
            {detail ? (
              <Charges subscription={detail} />
            ) : (
              <Text size="sm">
                <Trans>Loading the charges…</Trans>
              </Text>
            )}
          </Stack>

          <Stack gap="sm" component="section" aria-labelledby="subscription-invoices-title">
            <Title order={3} size="h5" id="subscription-invoices-title">
              <Trans>Invoices and credit notes</Trans>
            </Title>
            {!detail ? (
              <Text size="sm">
                <Trans>Loading the invoices…</Trans>
              </Text>
            ) : detail.invoices.length === 0 ? (
              <Text size="sm" c="dimmed">
                <Trans>No invoices yet.</Trans>
              </Text>
            ) : (
              <InvoiceTable
                invoices={detail.invoices}
                label={t`The subscription’s invoices and credit notes`}
                layout="cards"
              />
            )}
          </Stack>
        </Stack>
      )}
      <CancelSubscriptionDialog subscription={cancelling} onClose={() => setCancelling(null)} />
      <PauseSubscriptionDialog
        subscription={pausing?.subscription ?? null}
        action={pausing?.action ?? 'pause'}
        onClose={() => setPausing(null)}
      />
    </DetailDrawer>
  );
}
