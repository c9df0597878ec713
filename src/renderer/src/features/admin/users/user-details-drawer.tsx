import { ph, plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';
import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminLicense, AdminUser, AdminUserDetail } from '../../../../../shared/api/admin';
import type { Paged } from '../../../../../shared/api/paging';
import type { AdminPayment } from '../../../../../shared/api/payments';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon, CheckIcon, MailIcon, PencilIcon, TrashIcon } from '../../../components/brand/icons';
import { PaymentStatusBadge } from '../../../components/data/payment-status-badge';
import { showToast } from '../../../components/data/toast';
import { DetailDrawer } from '../../../components/drawer/detail-drawer';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { formatDate, formatDateTime, formatNumber, formatRelative, LicenseStatusBadge } from '../../licenses';
import {
  useGetUserQuery,
  useListUserLicensesQuery,
  useListUserPaymentsQuery,
  useResendConfirmationMutation,
  useUpdateUserMutation,
} from '../admin-endpoints';
import { formatMoney } from '../dashboard/dashboard-data';
import { CustomerInvoicesSection } from '../invoices/customer-invoices-section';
import { failureOf, type QueryAnswer } from '../query-answer';
import { AccountDataActions } from './account-data-actions';
import { AccountStateBadge, RoleBadge } from './user-badges';
import { displayName } from './user-format';
import { LicenseKeyText } from '../../../components/data/license-key-text';

export interface UserDetailsDrawerProps {
  /** The account to show (from the list row); null keeps the drawer closed. */
  user: AdminUser | null;
  onClose: () => void;
  onEdit: (user: AdminUser) => void;
  onDelete: (user: AdminUser) => void;
  /** The account after a change made here (its address marked as confirmed). */
  onChanged: (user: AdminUserDetail) => void;
}

type Load<T> = { data: T | null; error: string | null };

/** A read's answer for the account shown (an answer for another account is not shown meanwhile). */
const loadOf = <T,>(answer: QueryAnswer<T> & { currentData?: T }): Load<T> => ({
  data: answer.currentData ?? null,
  error: failureOf(answer),
});

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      {value === undefined ? (
        <Skeleton height={24} width={40} mt={4} />
      ) : (
        <Text fz={22} fw={700}>
          {formatNumber(value)}
        </Text>
      )}
    </Paper>
  );
}

function SectionError({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert">
      {message}
    </Alert>
  );
}

function ListSkeleton() {
  return (
    <Stack gap="xs" aria-hidden="true">
      <Skeleton height={44} radius="md" />
      <Skeleton height={44} radius="md" />
    </Stack>
  );
}

interface RecentListProps<Item> {
  title: string;
  /** The full list on its own screen, filtered by this user. */
  link: string;
  linkLabel: string;
  state: Load<Paged<Item>>;
  empty: ReactNode;
  itemKey: (item: Item) => string;
  renderItem: (item: Item) => ReactNode;
}

/** The newest few of one of the user's lists, with a link to all of them (or what to do when empty). */
function RecentList<Item>({
  title,
  link,
  linkLabel,
  state,
  empty,
  itemKey,
  renderItem,
}: RecentListProps<Item>) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {state.data && state.data.total > 0 && (
          <Anchor component={Link} to={link} size="sm" fw={600}>
            {linkLabel}
          </Anchor>
        )}
      </Group>
      {state.error ? (
        <SectionError message={state.error} />
      ) : !state.data ? (
        <ListSkeleton />
      ) : state.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {state.data.data.map((item) => (
            <Paper component="li" key={itemKey(item)} withBorder p="xs" radius="md">
              {renderItem(item)}
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function seatsOf(license: AdminLicense): string {
  const used = formatNumber(license.activations_used);
  const allowed = formatNumber(license.max_activations);
  return t`${used} of ${allowed} seats`;
}

function LicensesSection({ userId, state }: { userId: string; state: Load<Paged<AdminLicense>> }) {
  const link = `${portalPaths.adminLicenses}?userId=${encodeURIComponent(userId)}`;
  return (
    <RecentList
      title={t`Licenses`}
      link={link}
      linkLabel={t`Show in Licenses`}
      state={state}
      empty={
        <>
          <Trans>
            No licenses.{' '}
            <Anchor component={Link} to={link} size="sm">
              Issue one on the Licenses screen
            </Anchor>
            .
          </Trans>
        </>
      }
      itemKey={(license) => license.license_id}
      renderItem={(license) => (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Stack gap={2} miw={0}>
            <Text size="sm" fw={600}>
              {license.plan.name}
            </Text>
            <Code fz="xs" style={{ whiteSpace: 'normal' }}>
              <LicenseKeyText value={license.license_key} />
            </Code>
          </Stack>
          <Stack gap={2} align="flex-end" style={{ flex: 'none' }}>
            <LicenseStatusBadge status={license.status} size="sm" />
            <Text size="xs" c="dimmed">
              {seatsOf(license)}
            </Text>
          </Stack>
        </Group>
      )}
    />
  );
}

function PaymentsSection({ userId, state }: { userId: string; state: Load<Paged<AdminPayment>> }) {
  return (
    <RecentList
      title={t`Payments`}
      link={`${portalPaths.adminPayments}?userId=${encodeURIComponent(userId)}`}
      linkLabel={t`Show in Payments`}
      state={state}
      empty={t`No payments yet.`}
      itemKey={(payment) => payment.id}
      renderItem={(payment) => (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Stack gap={2} miw={0}>
            <Text size="sm" fw={600}>
              {formatMoney(payment.amount, payment.currency)} · {payment.plan.name}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(payment.created_at)}
            </Text>
          </Stack>
          <PaymentStatusBadge payment={payment} />
        </Group>
      )}
    />
  );
}

/** Whether the address is confirmed, and since when once the account's details are read. */
function ConfirmationFact({ user, detail }: { user: AdminUser; detail: AdminUserDetail | null }) {
  if (!user.email_verified) return <Trans>Not confirmed yet</Trans>;
  const at = detail?.id === user.id ? detail.email_verified_at : null;
  const day = at ? formatDate(at) : '';
  return at ? (
    <Trans>
      Confirmed on{' '}
      <time dateTime={at} title={formatDateTime(at)}>
        {day}
      </time>
    </Trans>
  ) : (
    <Trans>Confirmed</Trans>
  );
}

/** "Authenticator app and 2 passkeys", or "Off": what the account proves a sign-in with beyond its password. */
function passkeysText(count: number): string {
  const number = formatNumber(count);
  return plural(count, { one: `${number} passkey`, other: `${number} passkeys` });
}

export function secondFactorsText(factors: AdminUserDetail['second_factors']): string {
  const parts = [
    ...(factors.authenticator_app ? [t`Authenticator app`] : []),
    ...(factors.passkeys > 0 ? [passkeysText(factors.passkeys)] : []),
  ];
  if (parts.length === 0) return t`Off: password only`;
  const methods = new Intl.ListFormat(formattingLocale() ?? 'en', { type: 'conjunction' }).format(parts);
  return t`On: ${methods}`;
}

function SecondFactorsFact({ detail, failed }: { detail: AdminUserDetail | null; failed: boolean }) {
  if (detail) return <>{secondFactorsText(detail.second_factors)}</>;
  if (failed) return <Trans>Not known</Trans>;
  return <Skeleton component="span" display="inline-block" height={14} width={120} aria-label={t`Loading`} />;
}

/**
 * An account whose address is not confirmed cannot sign in: the administrator sends a new link
 * (through the outbox, as at sign-up) or vouches for the address. Both are recorded as their actions.
 */
function ConfirmationSection({
  user,
  onChanged,
}: {
  user: AdminUser;
  onChanged: (user: AdminUserDetail) => void;
}) {
  const [resend, resending] = useResendConfirmationMutation();
  const [update, confirming] = useUpdateUserMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const disabled = user.status !== 'active';

  const sendLink = async () => {
    setFailure(null);
    try {
      const answer = await resend(user.id).unwrap();
      showToast({ title: t`Confirmation link sent`, message: `${answer.message}: ${user.email}.` });
    } catch (error) {
      setFailure(toSubmitFailure(error, t`Could not send a new confirmation link`).message);
    }
  };

  const markConfirmed = async () => {
    setFailure(null);
    try {
      const saved = await update({ id: user.id, changes: { email_verified: true } }).unwrap();
      showToast({ title: t`E-mail confirmed`, message: t`${ph({ email: saved.email })} can sign in now.` });
      onChanged(saved);
    } catch (error) {
      setFailure(toSubmitFailure(error, t`Could not mark the address as confirmed`).message);
    }
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="user-confirmation-heading">
      <Stack gap="sm">
        <Title order={3} size="h5" id="user-confirmation-heading">
          <Trans>E-mail not confirmed</Trans>
        </Title>
        <Text size="sm">
          {disabled
            ? t`This account is disabled. Enable it before sending a confirmation link.`
            : t`This person has not opened the confirmation link yet, so they cannot sign in. Send a new link, or mark the address as confirmed if you know it is theirs.`}
        </Text>
        {failure && <SectionError message={failure} />}
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<MailIcon size={16} />}
            onClick={() => void sendLink()}
            loading={resending.isLoading}
            disabled={disabled || confirming.isLoading}
          >
            <Trans>Resend confirmation</Trans>
          </Button>
          <Button
            variant="light"
            leftSection={<CheckIcon size={16} />}
            onClick={() => void markConfirmed()}
            loading={confirming.isLoading}
            disabled={resending.isLoading}
          >
            <Trans>Mark as confirmed</Trans>
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * A user's details: the account, counts of licenses, machines and payments, the newest licenses
 * and payments with links to the full lists (filtered by this user), and Edit / Delete.
 */
export function UserDetailsDrawer({ user, onClose, onEdit, onDelete, onChanged }: UserDetailsDrawerProps) {
  // Shown again in the language chosen while it is open.
  useLingui();
  const id = user?.id ?? skipToken;
  // Through the slice: the account becomes its selectedUser. A change to the account (any admin
  // write) reads all three again.
  const detail = loadOf(useGetUserQuery(id));
  const licenses = loadOf(useListUserLicensesQuery(id));
  const payments = loadOf(useListUserPaymentsQuery(id));
  const counts = detail.data?.counts;

  return (
    <DetailDrawer
      opened={user !== null}
      onClose={onClose}
      size="lg"
      title={user ? t`User details: ${ph({ name: displayName(user) })}` : t`User details`}
    >
      {user && (
        <Stack gap="lg">
          <Stack gap="xs">
            <Group gap="xs">
              <RoleBadge role={user.role} />
              <AccountStateBadge user={user} />
            </Group>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="dl" m={0}>
              <Fact label={t`E-mail`}>{user.email}</Fact>
              <Fact label={t`Full name`}>{user.full_name || '—'}</Fact>
              <Fact label={t`Company`}>{user.company || '—'}</Fact>
              <Fact label={t`Created`}>{formatDate(user.created_at)}</Fact>
              <Fact label={t`Last sign-in`}>
                {user.last_sign_in_at ? (
                  <time dateTime={user.last_sign_in_at} title={formatDateTime(user.last_sign_in_at)}>
                    {formatRelative(user.last_sign_in_at)}
                  </time>
                ) : (
                  t`Never`
                )}
              </Fact>
              <Fact label={t`Updated`}>{formatDateTime(user.updated_at)}</Fact>
              <Fact label={t`E-mail address`}>
                <ConfirmationFact user={user} detail={detail.data} />
              </Fact>
              <Fact label={t`Two-factor sign-in`}>
                <SecondFactorsFact detail={detail.data} failed={detail.error !== null} />
              </Fact>
            </SimpleGrid>
          </Stack>
          {!user.email_verified && <ConfirmationSection user={user} onChanged={onChanged} />}
          {detail.error ? (
            <SectionError message={detail.error} />
          ) : (
            <SimpleGrid cols={3} spacing="sm" aria-busy={!counts || undefined}>
              <Count label={t`Licenses`} value={counts?.licenses} />
              <Count label={t`Machines`} value={counts?.active_activations} />
              <Count label={t`Payments`} value={counts?.payments} />
            </SimpleGrid>
          )}
          <LicensesSection userId={user.id} state={licenses} />
          <PaymentsSection userId={user.id} state={payments} />
          <CustomerInvoicesSection userId={user.id} />
          <Group gap="sm">
            <Button variant="default" leftSection={<PencilIcon size={16} />} onClick={() => onEdit(user)}>
              <Trans>Edit user</Trans>
            </Button>
            <Button
              variant="light"
              color="red"
              leftSection={<TrashIcon size={16} />}
              onClick={() => onDelete(user)}
            >
              <Trans>Delete user</Trans>
            </Button>
          </Group>
          {user.role === 'user' ? <AccountDataActions user={user} onErased={onClose} /> : null}
        </Stack>
      )}
    </DetailDrawer>
  );
}
