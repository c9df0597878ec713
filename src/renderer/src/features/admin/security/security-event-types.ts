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
      release_changed: 'Desktop release changed',
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
