/** Every kind of event the security log holds; the admin console's filter offers exactly these. */
export const securityEventTypes = {
  loginSucceeded: 'login_succeeded',
  loginFailed: 'login_failed',
  accountLocked: 'account_locked',
  refreshTokenReuse: 'refresh_token_reuse',
  passwordChanged: 'password_changed',
  signedOutEverywhere: 'signed_out_everywhere',
  // The owner ended one of their other sessions, or all of them but the current one.
  sessionRevoked: 'session_revoked',
  passwordReset: 'password_reset',
  passwordResetRequested: 'password_reset_requested',
  userRegistered: 'user_registered',
  signUpForExistingAccount: 'sign_up_for_existing_account',
  emailVerified: 'email_verified',
  adminCreated: 'admin_created',
  activationLimitReached: 'activation_limit_reached',
  // A machine took a license's last seat (the webhook `license.machine_limit_reached` says so too).
  machineLimitReached: 'machine_limit_reached',
  seatReclaimed: 'seat_reclaimed',
  paymentVerificationFailed: 'payment_verification_failed',
  webhookSignatureFailed: 'webhook_signature_failed',
  paymentWebhookRejected: 'payment_webhook_rejected',
  // Administrators' writes (actor_id is the administrator, user_id the account concerned).
  userCreated: 'user_created',
  userUpdated: 'user_updated',
  roleChanged: 'role_changed',
  userDisabled: 'user_disabled',
  userDeleted: 'user_deleted',
  confirmationMailResent: 'confirmation_mail_resent',
  licenseCreated: 'license_created',
  licenseUpdated: 'license_updated',
  licenseRevoked: 'license_revoked',
  activationDeactivated: 'activation_deactivated',
  activationRenamed: 'activation_renamed',
  // An administrator forgave the deactivations a license had counted against its plan's cap, with a reason.
  deactivationsReset: 'deactivations_reset',
  // A customer's deactivation refused: the license used its plan's cap for 30 days.
  deactivationLimitReached: 'deactivation_limit_reached',
  // An administrator granted units of a metered feature, with a reason (a credit pack of the license).
  usageUnitsGranted: 'usage_units_granted',
  // Floating licenses: every seat taken, a seat freed by hand, a seat lapsed unreturned or silent.
  floatingSeatsExhausted: 'floating_seats_exhausted',
  floatingSeatReleased: 'floating_seat_released',
  floatingBorrowOverdue: 'floating_borrow_overdue',
  floatingHeartbeatsStopped: 'floating_heartbeats_stopped',
  featureCreated: 'feature_created',
  featureUpdated: 'feature_updated',
  featureDeleted: 'feature_deleted',
  planCreated: 'plan_created',
  planUpdated: 'plan_updated',
  planDeleted: 'plan_deleted',
  licensingSettingsChanged: 'licensing_settings_changed',
  paymentRefunded: 'payment_refunded',
  subscriptionCancelled: 'subscription_cancelled',
  // A subscription paused, or its pause ended early, by its customer or an administrator.
  subscriptionPaused: 'subscription_paused',
  subscriptionPauseEnded: 'subscription_pause_ended',
  couponChanged: 'coupon_changed',
  // A desktop release's rollout raised, paused or resumed, its notes edited, or the release yanked.
  releaseChanged: 'release_changed',
  // Outgoing webhooks: administrators' changes to endpoints, and an endpoint disabled after failures.
  webhookEndpointCreated: 'webhook_endpoint_created',
  webhookEndpointUpdated: 'webhook_endpoint_updated',
  webhookEndpointDeleted: 'webhook_endpoint_deleted',
  webhookSecretRotated: 'webhook_secret_rotated',
  webhookRedelivered: 'webhook_redelivered',
  webhookEndpointDisabled: 'webhook_endpoint_disabled',
  // Passkeys: added and removed by their owner; a counter that did not move forward is refused.
  passkeyAdded: 'passkey_added',
  passkeyRemoved: 'passkey_removed',
  passkeyCounterRegressed: 'passkey_counter_regressed',
  // Two-factor sign-in and step-up: an authenticator app enabled or removed, recovery codes made
  // anew or used, a wrong second factor, a session proving itself again, the platform's setting.
  twoFactorEnabled: 'two_factor_enabled',
  twoFactorDisabled: 'two_factor_disabled',
  recoveryCodesRegenerated: 'recovery_codes_regenerated',
  recoveryCodeUsed: 'recovery_code_used',
  secondFactorFailed: 'second_factor_failed',
  steppedUp: 'stepped_up',
  stepUpFailed: 'step_up_failed',
  securitySettingsChanged: 'security_settings_changed',
  // API tokens: made and revoked (actor_id is who did it), and every call made with one.
  apiTokenCreated: 'api_token_created',
  apiTokenRevoked: 'api_token_revoked',
  apiTokenUsed: 'api_token_used',
  // Organisations: every change names its actor (actor_id) and the account concerned (user_id);
  // details carry the organisation's id.
  organisationCreated: 'organisation_created',
  organisationUpdated: 'organisation_updated',
  organisationInvitationSent: 'organisation_invitation_sent',
  organisationInvitationResent: 'organisation_invitation_resent',
  organisationInvitationRevoked: 'organisation_invitation_revoked',
  organisationMemberJoined: 'organisation_member_joined',
  organisationMemberRemoved: 'organisation_member_removed',
  organisationMemberLeft: 'organisation_member_left',
  organisationRoleChanged: 'organisation_role_changed',
  organisationOwnershipTransferred: 'organisation_ownership_transferred',
  organisationSeatAssigned: 'organisation_seat_assigned',
  organisationSeatUnassigned: 'organisation_seat_unassigned',
  organisationSeatsChanged: 'organisation_seats_changed',
  organisationUsageCapsChanged: 'organisation_usage_caps_changed',
  // A claimed mail domain: added, proven by its TXT record, removed; details carry the domain.
  organisationDomainAdded: 'organisation_domain_added',
  organisationDomainVerified: 'organisation_domain_verified',
  organisationDomainRemoved: 'organisation_domain_removed',
  // Single sign-on: its settings changed or removed, a test sign-in, a sign-in through the
  // provider (and one refused), and a platform administrator's password sign-in where SSO is required.
  ssoSettingsChanged: 'sso_settings_changed',
  ssoSettingsRemoved: 'sso_settings_removed',
  ssoTestSignIn: 'sso_test_sign_in',
  ssoSignIn: 'sso_sign_in',
  ssoSignInRefused: 'sso_sign_in_refused',
  ssoBreakGlass: 'sso_break_glass',
  // SCIM provisioning: the owner's token created, rotated, revoked; and each change a provisioning
  // client made (details: the token's id as the actor, the SCIM resource, what changed).
  scimTokenCreated: 'scim_token_created',
  scimTokenRotated: 'scim_token_rotated',
  scimTokenRevoked: 'scim_token_revoked',
  scimGroupRoleMapped: 'scim_group_role_mapped',
  scimUserCreated: 'scim_user_created',
  scimUserUpdated: 'scim_user_updated',
  scimUserDeactivated: 'scim_user_deactivated',
  scimUserReactivated: 'scim_user_reactivated',
  scimUserDeleted: 'scim_user_deleted',
  scimGroupCreated: 'scim_group_created',
  scimGroupUpdated: 'scim_group_updated',
  scimGroupDeleted: 'scim_group_deleted',
  scimRefused: 'scim_refused',
  // The customer's own data: an export asked for (actor_id: an administrator's), the account's
  // deletion asked for and taken back, and its erasure (by the grace period's end or an administrator).
  dataExportRequested: 'data_export_requested',
  accountDeletionRequested: 'account_deletion_requested',
  accountDeletionCancelled: 'account_deletion_cancelled',
  accountErased: 'account_erased',
} as const;
export type SecurityEventType = (typeof securityEventTypes)[keyof typeof securityEventTypes];
