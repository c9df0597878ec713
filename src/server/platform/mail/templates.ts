import { PRODUCT_NAME } from '../../../shared/constants.js';
import { composeMail } from './compose.js';
import type { MailMessage } from './message.js';

/** The kinds of mail the server sends; a queued mail records its kind. Stable: logs and tests name them. */
export const mailKinds = {
  verification: 'verification',
  accountExists: 'account_exists',
  passwordReset: 'password_reset',
  passwordChanged: 'password_changed',
  // The customer's mail (customer-mails.ts).
  receipt: 'receipt',
  renewalReminder: 'renewal_reminder',
  paymentFailed: 'payment_failed',
  gracePeriodEnding: 'grace_period_ending',
  licenseSuspended: 'license_suspended',
  licenseRevoked: 'license_revoked',
  licenseExpired: 'license_expired',
  subscriptionCancelled: 'subscription_cancelled',
  subscriptionResumed: 'subscription_resumed',
  // A pause asked for, and its end (on time, early, or a pause to come withdrawn).
  subscriptionPaused: 'subscription_paused',
  subscriptionPauseEnded: 'subscription_pause_ended',
  duplicateSubscriptionRefunded: 'duplicate_subscription_refunded',
  refundReceipt: 'refund_receipt',
  newSignIn: 'new_sign_in',
  licenseExpiringSoon: 'license_expiring_soon',
  // Free trials (trial-mails.ts): ending soon, and ended unpaid.
  trialEnding: 'trial_ending',
  trialExpired: 'trial_expired',
  // To the support address, and its acknowledgement to the customer (modules/support/mail.ts).
  supportRequest: 'support_request',
  supportRequestReceived: 'support_request_received',
  // Organisations (modules/organisations/mail.ts): an invitation, a member removed (to them), a
  // member joined (to the owner).
  organisationInvitation: 'organisation_invitation',
  organisationMemberRemoved: 'organisation_member_removed',
  organisationMemberJoined: 'organisation_member_joined',
  // Metered usage (usage-mails.ts): 80 % of an allowance used, and all of it.
  allowanceWarning: 'allowance_warning',
  allowanceReached: 'allowance_reached',
  // The customer's own data: the archive they asked for is ready.
  dataExportReady: 'data_export_ready',
} as const;
export type MailKind = (typeof mailKinds)[keyof typeof mailKinds];

export const verificationMail = (to: string, link: string): MailMessage =>
  composeMail({
    kind: mailKinds.verification,
    to,
    subject: `Confirm your ${PRODUCT_NAME} account`,
    content: {
      preview: 'Confirm your e-mail address to finish creating your account.',
      heading: `Welcome to ${PRODUCT_NAME}`,
      body: [{ paragraph: 'Confirm your e-mail address to finish creating your account.' }],
      action: { label: 'Confirm my e-mail address', url: link },
      after: [
        { note: 'The link works once and expires in 24 hours. If you did not sign up, ignore this message.' },
      ],
    },
  });

export const accountExistsMail = (to: string, loginLink: string, resetLink: string): MailMessage =>
  composeMail({
    kind: mailKinds.accountExists,
    to,
    link: loginLink,
    subject: `You already have a ${PRODUCT_NAME} account`,
    content: {
      preview: 'Someone tried to create an account with this address, which already has one.',
      heading: 'You already have an account',
      body: [
        {
          paragraph: `Someone tried to create a ${PRODUCT_NAME} account with this address, which already has one.`,
        },
      ],
      action: { label: 'Sign in', url: loginLink },
      after: [
        { paragraph: `Forgot your password? Choose a new one: ${resetLink}` },
        { note: 'If this was not you, no action is needed.' },
      ],
    },
  });

export const passwordResetMail = (to: string, link: string): MailMessage =>
  composeMail({
    kind: mailKinds.passwordReset,
    to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    content: {
      preview: 'Choose a new password for your account.',
      heading: 'Reset your password',
      body: [{ paragraph: `We received a request to reset the password of your ${PRODUCT_NAME} account.` }],
      action: { label: 'Choose a new password', url: link },
      after: [
        {
          note:
            'The link works once and expires in 1 hour. If you did not ask for this, ignore this message: ' +
            'your password stays the same.',
        },
      ],
    },
  });

/**
 * The answer to a reset asked for an address whose organisation signs it in through its own
 * provider: there is no password here to reset, so no link to reset one, only where to sign in.
 */
export const passwordResetThroughSsoMail = (
  to: string,
  organisationName: string,
  loginLink: string,
): MailMessage =>
  composeMail({
    kind: mailKinds.passwordReset,
    to,
    link: loginLink,
    subject: `Sign in to ${PRODUCT_NAME} through ${organisationName}`,
    content: {
      preview: `${organisationName} signs you in through its identity provider.`,
      heading: 'No password to reset',
      body: [
        { paragraph: `We received a request to reset the password of your ${PRODUCT_NAME} account.` },
        {
          paragraph:
            `${organisationName} signs you in through its identity provider, so your account has no ` +
            'password to reset here. On the sign-in page, choose Continue with single sign-on, or ask ' +
            `${organisationName}'s administrators if you cannot sign in at the provider.`,
        },
      ],
      action: { label: 'Go to the sign-in page', url: loginLink },
      after: [{ note: 'If you did not ask for this, ignore this message: nothing was changed.' }],
    },
  });

export const passwordChangedMail = (to: string, resetLink: string): MailMessage =>
  composeMail({
    kind: mailKinds.passwordChanged,
    to,
    subject: `Your ${PRODUCT_NAME} password was changed`,
    content: {
      preview: 'Every device was signed out.',
      heading: 'Your password was changed',
      body: [
        {
          paragraph: `The password of your ${PRODUCT_NAME} account was just changed and every device was signed out.`,
        },
        { paragraph: 'If this was not you, reset your password now.' },
      ],
      action: { label: 'Reset my password', url: resetLink },
    },
  });

export const dataExportReadyMail = (to: string, link: string, expiresAt: string): MailMessage =>
  composeMail({
    kind: mailKinds.dataExportReady,
    to,
    subject: `Your ${PRODUCT_NAME} data export is ready`,
    content: {
      preview: 'Download it within 24 hours.',
      heading: 'Your data export is ready',
      body: [
        {
          paragraph: `The archive of your ${PRODUCT_NAME} account's data (your account, licenses, machines, organizations, payments, subscriptions, security events and invoices) is ready.`,
        },
        {
          paragraph: `The link works until ${expiresAt.slice(0, 16).replace('T', ' ')} UTC; after that, ask for a new export on your Profile.`,
        },
      ],
      action: { label: 'Download my data', url: link },
    },
  });
