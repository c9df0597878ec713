import { PRODUCT_NAME } from '../../../shared/constants.js';
import { composeMail } from './compose.js';
import { type MailI18n, mailI18n } from './mail-i18n.js';
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

/*
 * Each mail takes the recipient's language preference last (`preferences.language`; absent or a
 * language the portal does not speak: English) and is written in it (mail-i18n.ts).
 */

const product = PRODUCT_NAME;

export const verificationMail = (to: string, link: string, language?: string | null): MailMessage => {
  const i18n = mailI18n(language);
  const confirm = i18n._({
    id: 'mail.verification.preview',
    message: 'Confirm your e-mail address to finish creating your account.',
  });
  return composeMail({
    kind: mailKinds.verification,
    to,
    i18n,
    subject: i18n._(
      { id: 'mail.verification.subject', message: 'Confirm your {product} account' },
      { product },
    ),
    content: {
      preview: confirm,
      heading: i18n._({ id: 'mail.verification.heading', message: 'Welcome to {product}' }, { product }),
      body: [{ paragraph: confirm }],
      action: {
        label: i18n._({ id: 'mail.verification.action', message: 'Confirm my e-mail address' }),
        url: link,
      },
      after: [
        {
          note: i18n._({
            id: 'mail.verification.expiry',
            message:
              'The link works once and expires in 24 hours. If you did not sign up, ignore this message.',
          }),
        },
      ],
    },
  });
};

export const accountExistsMail = (
  to: string,
  loginLink: string,
  resetLink: string,
  language?: string | null,
): MailMessage => {
  const i18n = mailI18n(language);
  return composeMail({
    kind: mailKinds.accountExists,
    to,
    i18n,
    link: loginLink,
    subject: i18n._(
      { id: 'mail.accountExists.subject', message: 'You already have a {product} account' },
      { product },
    ),
    content: {
      preview: i18n._({
        id: 'mail.accountExists.preview',
        message: 'Someone tried to create an account with this address, which already has one.',
      }),
      heading: i18n._({ id: 'mail.accountExists.heading', message: 'You already have an account' }),
      body: [
        {
          paragraph: i18n._(
            {
              id: 'mail.accountExists.body',
              message:
                'Someone tried to create a {product} account with this address, which already has one.',
            },
            { product },
          ),
        },
      ],
      action: { label: i18n._({ id: 'mail.action.signIn', message: 'Sign in' }), url: loginLink },
      after: [
        {
          paragraph: i18n._(
            {
              id: 'mail.accountExists.forgot',
              message: 'Forgot your password? Choose a new one: {resetLink}',
            },
            { resetLink },
          ),
        },
        {
          note: i18n._({
            id: 'mail.accountExists.notYou',
            message: 'If this was not you, no action is needed.',
          }),
        },
      ],
    },
  });
};

export const passwordResetMail = (to: string, link: string, language?: string | null): MailMessage => {
  const i18n = mailI18n(language);
  return composeMail({
    kind: mailKinds.passwordReset,
    to,
    i18n,
    subject: i18n._(
      { id: 'mail.passwordReset.subject', message: 'Reset your {product} password' },
      { product },
    ),
    content: {
      preview: i18n._({
        id: 'mail.passwordReset.preview',
        message: 'Choose a new password for your account.',
      }),
      heading: i18n._({ id: 'mail.passwordReset.heading', message: 'Reset your password' }),
      body: [{ paragraph: resetRequested(i18n) }],
      action: {
        label: i18n._({ id: 'mail.passwordReset.action', message: 'Choose a new password' }),
        url: link,
      },
      after: [
        {
          note: i18n._({
            id: 'mail.passwordReset.expiry',
            message:
              'The link works once and expires in 1 hour. If you did not ask for this, ignore this message: your password stays the same.',
          }),
        },
      ],
    },
  });
};

const resetRequested = (i18n: MailI18n) =>
  i18n._(
    {
      id: 'mail.passwordReset.requested',
      message: 'We received a request to reset the password of your {product} account.',
    },
    { product },
  );

/**
 * The answer to a reset asked for an address whose organisation signs it in through its own
 * provider: there is no password here to reset, so no link to reset one, only where to sign in.
 */
export const passwordResetThroughSsoMail = (
  to: string,
  organisationName: string,
  loginLink: string,
  language?: string | null,
): MailMessage => {
  const i18n = mailI18n(language);
  return composeMail({
    kind: mailKinds.passwordReset,
    to,
    i18n,
    link: loginLink,
    subject: i18n._(
      { id: 'mail.passwordResetSso.subject', message: 'Sign in to {product} through {organisationName}' },
      { product, organisationName },
    ),
    content: {
      preview: i18n._(
        {
          id: 'mail.passwordResetSso.preview',
          message: '{organisationName} signs you in through its identity provider.',
        },
        { organisationName },
      ),
      heading: i18n._({ id: 'mail.passwordResetSso.heading', message: 'No password to reset' }),
      body: [
        { paragraph: resetRequested(i18n) },
        {
          paragraph: i18n._(
            {
              id: 'mail.passwordResetSso.body',
              message:
                "{organisationName} signs you in through its identity provider, so your account has no password to reset here. On the sign-in page, choose Continue with single sign-on, or ask {organisationName}'s administrators if you cannot sign in at the provider.",
            },
            { organisationName },
          ),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.passwordResetSso.action', message: 'Go to the sign-in page' }),
        url: loginLink,
      },
      after: [
        {
          note: i18n._({
            id: 'mail.passwordResetSso.notYou',
            message: 'If you did not ask for this, ignore this message: nothing was changed.',
          }),
        },
      ],
    },
  });
};

export const passwordChangedMail = (to: string, resetLink: string, language?: string | null): MailMessage => {
  const i18n = mailI18n(language);
  return composeMail({
    kind: mailKinds.passwordChanged,
    to,
    i18n,
    subject: i18n._(
      { id: 'mail.passwordChanged.subject', message: 'Your {product} password was changed' },
      { product },
    ),
    content: {
      preview: i18n._({ id: 'mail.passwordChanged.preview', message: 'Every device was signed out.' }),
      heading: i18n._({ id: 'mail.passwordChanged.heading', message: 'Your password was changed' }),
      body: [
        {
          paragraph: i18n._(
            {
              id: 'mail.passwordChanged.body',
              message:
                'The password of your {product} account was just changed and every device was signed out.',
            },
            { product },
          ),
        },
        {
          paragraph: i18n._({
            id: 'mail.passwordChanged.notYou',
            message: 'If this was not you, reset your password now.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.passwordChanged.action', message: 'Reset my password' }),
        url: resetLink,
      },
    },
  });
};

export const dataExportReadyMail = (
  to: string,
  link: string,
  expiresAt: string,
  language?: string | null,
): MailMessage => {
  const i18n = mailI18n(language);
  const until = expiresAt.slice(0, 16).replace('T', ' ');
  return composeMail({
    kind: mailKinds.dataExportReady,
    to,
    i18n,
    subject: i18n._(
      { id: 'mail.dataExport.subject', message: 'Your {product} data export is ready' },
      { product },
    ),
    content: {
      preview: i18n._({ id: 'mail.dataExport.preview', message: 'Download it within 24 hours.' }),
      heading: i18n._({ id: 'mail.dataExport.heading', message: 'Your data export is ready' }),
      body: [
        {
          paragraph: i18n._(
            {
              id: 'mail.dataExport.body',
              message:
                "The archive of your {product} account's data (your account, licenses, machines, organizations, payments, subscriptions, security events and invoices) is ready.",
            },
            { product },
          ),
        },
        {
          paragraph: i18n._(
            {
              id: 'mail.dataExport.until',
              message: 'The link works until {until} UTC; after that, ask for a new export on your Profile.',
            },
            { until },
          ),
        },
      ],
      action: { label: i18n._({ id: 'mail.dataExport.action', message: 'Download my data' }), url: link },
    },
  });
};
