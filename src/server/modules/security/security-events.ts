import { randomUUID } from 'node:crypto';
import { type Clock, isoNow } from '../../clock.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { SecuritySeverity } from '../../db/tables.js';
import type { RequestMeta } from '../../request-meta.js';

export const securityEventTypes = {
  loginSucceeded: 'login_succeeded',
  loginFailed: 'login_failed',
  accountLocked: 'account_locked',
  refreshTokenReuse: 'refresh_token_reuse',
  passwordChanged: 'password_changed',
  signedOutEverywhere: 'signed_out_everywhere',
  passwordReset: 'password_reset',
  passwordResetRequested: 'password_reset_requested',
  userRegistered: 'user_registered',
  signUpForExistingAccount: 'sign_up_for_existing_account',
  emailVerified: 'email_verified',
  adminCreated: 'admin_created',
  activationLimitReached: 'activation_limit_reached',
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
  licenseCreated: 'license_created',
  licenseUpdated: 'license_updated',
  licenseRevoked: 'license_revoked',
  activationDeactivated: 'activation_deactivated',
  featureCreated: 'feature_created',
  featureUpdated: 'feature_updated',
  featureDeleted: 'feature_deleted',
  planCreated: 'plan_created',
  planUpdated: 'plan_updated',
  planDeleted: 'plan_deleted',
  licensingSettingsChanged: 'licensing_settings_changed',
} as const;
export type SecurityEventType = (typeof securityEventTypes)[keyof typeof securityEventTypes];

export interface SecurityEventInput {
  type: SecurityEventType;
  severity: SecuritySeverity;
  userId?: string | null;
  actorId?: string | null;
  meta?: RequestMeta | null;
  details?: Record<string, unknown>;
}

/** Appends one row to the security log; callers pass their transaction so the event commits with the change. */
export async function recordSecurityEvent(
  db: DbOrTransaction,
  clock: Clock,
  event: SecurityEventInput,
): Promise<void> {
  await db
    .insertInto('security_events')
    .values({
      id: randomUUID(),
      type: event.type,
      severity: event.severity,
      user_id: event.userId ?? null,
      actor_id: event.actorId ?? null,
      ip: event.meta?.ip ?? null,
      user_agent: event.meta?.userAgent ?? null,
      details: event.details ? JSON.stringify(event.details) : null,
      created_at: isoNow(clock),
    })
    .execute();
}
