import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SecuritySeverityName } from '../../../../../shared/api/admin';
import type { StatusTone } from '../../../components/data/status-badge';

/**
 * The event types the server records (src/server/platform/security-log/security-events.ts; a test
 * keeps the two lists equal), grouped and named for people (render with the shown language's
 * `i18n._`). The server refuses unknown types.
 */
export const SECURITY_EVENT_GROUPS: readonly {
  group: MessageDescriptor;
  types: Readonly<Record<string, MessageDescriptor>>;
}[] = [
  {
    group: msg`Sign-in and accounts`,
    types: {
      login_succeeded: msg`Sign-in succeeded`,
      login_failed: msg`Sign-in failed`,
      account_locked: msg`Account locked`,
      refresh_token_reuse: msg`Refresh token reused`,
      password_changed: msg`Password changed`,
      password_reset: msg`Password reset`,
      password_reset_requested: msg`Password reset requested`,
      signed_out_everywhere: msg`Signed out everywhere`,
      session_revoked: msg`Other sessions signed out`,
      user_registered: msg`Account registered`,
      sign_up_for_existing_account: msg`Sign-up with a confirmed address`,
      email_verified: msg`E-mail confirmed`,
      admin_created: msg`Administrator created`,
      passkey_added: msg`Passkey added`,
      passkey_removed: msg`Passkey removed`,
      passkey_counter_regressed: msg`Passkey counter went back`,
    },
  },
  {
    group: msg`Two-factor and step-up`,
    types: {
      two_factor_enabled: msg`Authenticator app enabled`,
      two_factor_disabled: msg`Authenticator app removed`,
      recovery_codes_regenerated: msg`Recovery codes made anew`,
      recovery_code_used: msg`Recovery code used`,
      second_factor_failed: msg`Wrong second factor`,
      stepped_up: msg`Identity confirmed for a sensitive change`,
      step_up_failed: msg`Identity confirmation failed`,
      security_settings_changed: msg`Security settings changed`,
    },
  },
  {
    group: msg`API tokens`,
    types: {
      api_token_created: msg`API token created`,
      api_token_revoked: msg`API token revoked`,
      api_token_used: msg`API token used`,
    },
  },
  {
    group: msg`Licenses and seats`,
    types: {
      activation_limit_reached: msg`Seat limit reached`,
      machine_limit_reached: msg`Last seat taken`,
      deactivation_limit_reached: msg`Deactivation limit reached`,
      seat_reclaimed: msg`Seat reclaimed`,
    },
  },
  {
    group: msg`Payments`,
    types: {
      payment_verification_failed: msg`Payment verification failed`,
      webhook_signature_failed: msg`Webhook signature failed`,
      payment_webhook_rejected: msg`Payment webhook rejected`,
    },
  },
  {
    group: msg`Administrator actions`,
    types: {
      user_created: msg`User created`,
      user_updated: msg`User updated`,
      role_changed: msg`Role changed`,
      user_disabled: msg`User disabled`,
      user_deleted: msg`User deleted`,
      confirmation_mail_resent: msg`Confirmation mail resent`,
      license_created: msg`License created`,
      license_updated: msg`License updated`,
      license_revoked: msg`License revoked`,
      activation_deactivated: msg`Activation deactivated`,
      activation_renamed: msg`Machine renamed`,
      deactivations_reset: msg`Deactivation count reset`,
      usage_units_granted: msg`Usage units granted`,
      feature_created: msg`Feature created`,
      feature_updated: msg`Feature updated`,
      feature_deleted: msg`Feature deleted`,
      plan_created: msg`Package created`,
      plan_updated: msg`Package updated`,
      plan_deleted: msg`Package deleted`,
      licensing_settings_changed: msg`Licensing settings changed`,
      payment_refunded: msg`Payment refunded`,
      coupon_changed: msg`Coupon changed`,
      subscription_cancelled: msg`Subscription canceled`,
      subscription_paused: msg`Subscription paused`,
      subscription_pause_ended: msg`Subscription pause ended`,
      release_changed: msg`Desktop release changed`,
    },
  },
  {
    group: msg`Floating licenses`,
    types: {
      floating_seats_exhausted: msg`All floating seats in use`,
      floating_seat_released: msg`Floating seat freed by hand`,
      floating_borrow_overdue: msg`Borrowed seat not returned`,
      floating_heartbeats_stopped: msg`Machine stopped checking in`,
    },
  },
  {
    group: msg`Webhooks`,
    types: {
      webhook_endpoint_created: msg`Webhook endpoint added`,
      webhook_endpoint_updated: msg`Webhook endpoint changed`,
      webhook_endpoint_deleted: msg`Webhook endpoint deleted`,
      webhook_secret_rotated: msg`Webhook secret rotated`,
      webhook_redelivered: msg`Webhook sent again`,
      webhook_endpoint_disabled: msg`Webhook endpoint disabled after failures`,
    },
  },
  {
    group: msg`Organizations`,
    types: {
      organisation_created: msg`Organization created`,
      organisation_updated: msg`Organization changed`,
      organisation_invitation_sent: msg`Invitation sent`,
      organisation_invitation_resent: msg`Invitation sent again`,
      organisation_invitation_revoked: msg`Invitation revoked`,
      organisation_member_joined: msg`Member joined`,
      organisation_member_removed: msg`Member removed`,
      organisation_member_left: msg`Member left`,
      organisation_role_changed: msg`Member’s role changed`,
      organisation_ownership_transferred: msg`Ownership transferred`,
      organisation_seat_assigned: msg`Seat assigned`,
      organisation_seat_unassigned: msg`Seat taken back`,
      organisation_seats_changed: msg`Seats bought`,
      organisation_usage_caps_changed: msg`Member’s usage caps changed`,
      organisation_domain_added: msg`Domain claimed`,
      organisation_domain_verified: msg`Domain verified`,
      organisation_domain_removed: msg`Domain removed`,
    },
  },
  {
    group: msg`Single sign-on`,
    types: {
      sso_settings_changed: msg`Single sign-on settings changed`,
      sso_settings_removed: msg`Single sign-on removed`,
      sso_test_sign_in: msg`Single sign-on test sign-in`,
      sso_sign_in: msg`Signed in through single sign-on`,
      sso_sign_in_refused: msg`Single sign-on sign-in refused`,
      sso_break_glass: msg`Password sign-in where single sign-on is required`,
    },
  },
  {
    group: msg`Provisioning (SCIM)`,
    types: {
      scim_token_created: msg`SCIM token created`,
      scim_token_rotated: msg`SCIM token rotated`,
      scim_token_revoked: msg`SCIM token revoked`,
      scim_group_role_mapped: msg`SCIM group mapped to a role`,
      scim_user_created: msg`User provisioned`,
      scim_user_updated: msg`Provisioned user changed`,
      scim_user_deactivated: msg`Provisioned user deactivated`,
      scim_user_reactivated: msg`Provisioned user reactivated`,
      scim_user_deleted: msg`Provisioned user deleted`,
      scim_group_created: msg`Group provisioned`,
      scim_group_updated: msg`Provisioned group changed`,
      scim_group_deleted: msg`Provisioned group deleted`,
      scim_refused: msg`SCIM change refused`,
    },
  },
  {
    group: msg`Account data`,
    types: {
      data_export_requested: msg`Data export requested`,
      account_deletion_requested: msg`Account deletion requested`,
      account_deletion_cancelled: msg`Account deletion cancelled`,
      account_erased: msg`Account erased`,
    },
  },
];

const LABELS: Readonly<Record<string, MessageDescriptor>> = Object.assign(
  {},
  ...SECURITY_EVENT_GROUPS.map((group) => group.types),
) as Record<string, MessageDescriptor>;

export const SECURITY_EVENT_TYPES: readonly string[] = Object.keys(LABELS);

/**
 * A security event's type in words ("login_failed" → "Sign-in failed"): the one formatter of event
 * types, so the dashboard's overview and the Security page name an event alike. A type this portal
 * does not know yet is shown in words made from its name ("new_thing" → "New thing").
 */
export const eventTypeLabel = (type: string): string => {
  const known = LABELS[type];
  if (known !== undefined) return i18n._(known);
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The choices of the "Event type" filter, grouped, in the language shown now. */
export const eventTypeOptions = () =>
  SECURITY_EVENT_GROUPS.map(({ group, types }) => ({
    group: i18n._(group),
    items: Object.entries(types).map(([value, label]) => ({ value, label: i18n._(label) })),
  }));

/** Each severity in words (render with the shown language's `i18n._`), and its badge's tone. */
export const SEVERITY_LABELS: Record<SecuritySeverityName, { label: MessageDescriptor; tone: StatusTone }> = {
  info: { label: msg`Info`, tone: 'info' },
  warning: { label: msg`Warning`, tone: 'caution' },
  critical: { label: msg`Critical`, tone: 'negative' },
};

/** A severity in words, in the language shown now. */
export const severityLabel = (severity: SecuritySeverityName): string =>
  i18n._(SEVERITY_LABELS[severity].label);

/** The `type` filter as the URL and the server carry it: a comma-separated list of known types. */
export const parseTypeFilter = (value: string): string[] =>
  value
    .split(',')
    .map((type) => type.trim())
    .filter((type) => SECURITY_EVENT_TYPES.includes(type));
