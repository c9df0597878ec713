import type { SecuritySeverityName } from '../../../../../shared/api/admin';
import type { StatusTone } from '../../../components/data/status-badge';

/**
 * The event types the server records (src/server/platform/security-log/security-events.ts; a test
 * keeps the two lists equal), grouped and named for people. The server refuses unknown types.
 */
export const SECURITY_EVENT_GROUPS: readonly { group: string; types: Readonly<Record<string, string>> }[] = [
  {
    group: 'Sign-in and accounts',
    types: {
      login_succeeded: 'Sign-in succeeded',
      login_failed: 'Sign-in failed',
      account_locked: 'Account locked',
      refresh_token_reuse: 'Refresh token reused',
      password_changed: 'Password changed',
      password_reset: 'Password reset',
      password_reset_requested: 'Password reset requested',
      signed_out_everywhere: 'Signed out everywhere',
      session_revoked: 'Other sessions signed out',
      user_registered: 'Account registered',
      sign_up_for_existing_account: 'Sign-up with a confirmed address',
      email_verified: 'E-mail confirmed',
      admin_created: 'Administrator created',
      passkey_added: 'Passkey added',
      passkey_removed: 'Passkey removed',
      passkey_counter_regressed: 'Passkey counter went back',
    },
  },
  {
    group: 'Two-factor and step-up',
    types: {
      two_factor_enabled: 'Authenticator app enabled',
      two_factor_disabled: 'Authenticator app removed',
      recovery_codes_regenerated: 'Recovery codes made anew',
      recovery_code_used: 'Recovery code used',
      second_factor_failed: 'Wrong second factor',
      stepped_up: 'Identity confirmed for a sensitive change',
      step_up_failed: 'Identity confirmation failed',
      security_settings_changed: 'Security settings changed',
    },
  },
  {
    group: 'API tokens',
    types: {
      api_token_created: 'API token created',
      api_token_revoked: 'API token revoked',
      api_token_used: 'API token used',
    },
  },
  {
    group: 'Licenses and seats',
    types: {
      activation_limit_reached: 'Seat limit reached',
      machine_limit_reached: 'Last seat taken',
      deactivation_limit_reached: 'Deactivation limit reached',
      seat_reclaimed: 'Seat reclaimed',
    },
  },
  {
    group: 'Payments',
    types: {
      payment_verification_failed: 'Payment verification failed',
      webhook_signature_failed: 'Webhook signature failed',
      payment_webhook_rejected: 'Payment webhook rejected',
    },
  },
  {
    group: 'Administrator actions',
    types: {
      user_created: 'User created',
      user_updated: 'User updated',
      role_changed: 'Role changed',
      user_disabled: 'User disabled',
      user_deleted: 'User deleted',
      confirmation_mail_resent: 'Confirmation mail resent',
      license_created: 'License created',
      license_updated: 'License updated',
      license_revoked: 'License revoked',
      activation_deactivated: 'Activation deactivated',
      activation_renamed: 'Machine renamed',
      deactivations_reset: 'Deactivation count reset',
      usage_units_granted: 'Usage units granted',
      feature_created: 'Feature created',
      feature_updated: 'Feature updated',
      feature_deleted: 'Feature deleted',
      plan_created: 'Package created',
      plan_updated: 'Package updated',
      plan_deleted: 'Package deleted',
      licensing_settings_changed: 'Licensing settings changed',
      payment_refunded: 'Payment refunded',
      coupon_changed: 'Coupon changed',
      subscription_cancelled: 'Subscription canceled',
      subscription_paused: 'Subscription paused',
      subscription_pause_ended: 'Subscription pause ended',
      release_changed: 'Desktop release changed',
    },
  },
  {
    group: 'Floating licenses',
    types: {
      floating_seats_exhausted: 'All floating seats in use',
      floating_seat_released: 'Floating seat freed by hand',
      floating_borrow_overdue: 'Borrowed seat not returned',
      floating_heartbeats_stopped: 'Machine stopped checking in',
    },
  },
  {
    group: 'Webhooks',
    types: {
      webhook_endpoint_created: 'Webhook endpoint added',
      webhook_endpoint_updated: 'Webhook endpoint changed',
      webhook_endpoint_deleted: 'Webhook endpoint deleted',
      webhook_secret_rotated: 'Webhook secret rotated',
      webhook_redelivered: 'Webhook sent again',
      webhook_endpoint_disabled: 'Webhook endpoint disabled after failures',
    },
  },
  {
    group: 'Organizations',
    types: {
      organisation_created: 'Organization created',
      organisation_updated: 'Organization changed',
      organisation_invitation_sent: 'Invitation sent',
      organisation_invitation_resent: 'Invitation sent again',
      organisation_invitation_revoked: 'Invitation revoked',
      organisation_member_joined: 'Member joined',
      organisation_member_removed: 'Member removed',
      organisation_member_left: 'Member left',
      organisation_role_changed: 'Member’s role changed',
      organisation_ownership_transferred: 'Ownership transferred',
      organisation_seat_assigned: 'Seat assigned',
      organisation_seat_unassigned: 'Seat taken back',
      organisation_seats_changed: 'Seats bought',
      organisation_usage_caps_changed: 'Member’s usage caps changed',
      organisation_domain_added: 'Domain claimed',
      organisation_domain_verified: 'Domain verified',
      organisation_domain_removed: 'Domain removed',
    },
  },
  {
    group: 'Single sign-on',
    types: {
      sso_settings_changed: 'Single sign-on settings changed',
      sso_settings_removed: 'Single sign-on removed',
      sso_test_sign_in: 'Single sign-on test sign-in',
      sso_sign_in: 'Signed in through single sign-on',
      sso_sign_in_refused: 'Single sign-on sign-in refused',
      sso_break_glass: 'Password sign-in where single sign-on is required',
    },
  },
  {
    group: 'Provisioning (SCIM)',
    types: {
      scim_token_created: 'SCIM token created',
      scim_token_rotated: 'SCIM token rotated',
      scim_token_revoked: 'SCIM token revoked',
      scim_group_role_mapped: 'SCIM group mapped to a role',
      scim_user_created: 'User provisioned',
      scim_user_updated: 'Provisioned user changed',
      scim_user_deactivated: 'Provisioned user deactivated',
      scim_user_reactivated: 'Provisioned user reactivated',
      scim_user_deleted: 'Provisioned user deleted',
      scim_group_created: 'Group provisioned',
      scim_group_updated: 'Provisioned group changed',
      scim_group_deleted: 'Provisioned group deleted',
      scim_refused: 'SCIM change refused',
    },
  },
  {
    group: 'Account data',
    types: {
      data_export_requested: 'Data export requested',
      account_deletion_requested: 'Account deletion requested',
      account_deletion_cancelled: 'Account deletion cancelled',
      account_erased: 'Account erased',
    },
  },
];

const LABELS: Readonly<Record<string, string>> = Object.assign(
  {},
  ...SECURITY_EVENT_GROUPS.map((group) => group.types),
) as Record<string, string>;

export const SECURITY_EVENT_TYPES: readonly string[] = Object.keys(LABELS);

/**
 * A security event's type in words ("login_failed" → "Sign-in failed"): the one formatter of event
 * types, so the dashboard's overview and the Security page name an event alike. A type this portal
 * does not know yet is shown in words made from its name ("new_thing" → "New thing").
 */
export const eventTypeLabel = (type: string): string => {
  const known = LABELS[type];
  if (known !== undefined) return known;
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The choices of the "Event type" filter, grouped. */
export const eventTypeOptions = SECURITY_EVENT_GROUPS.map(({ group, types }) => ({
  group,
  items: Object.entries(types).map(([value, label]) => ({ value, label })),
}));

export const SEVERITY_LABELS: Record<SecuritySeverityName, { label: string; tone: StatusTone }> = {
  info: { label: 'Info', tone: 'info' },
  warning: { label: 'Warning', tone: 'caution' },
  critical: { label: 'Critical', tone: 'negative' },
};

/** The `type` filter as the URL and the server carry it: a comma-separated list of known types. */
export const parseTypeFilter = (value: string): string[] =>
  value
    .split(',')
    .map((type) => type.trim())
    .filter((type) => SECURITY_EVENT_TYPES.includes(type));
