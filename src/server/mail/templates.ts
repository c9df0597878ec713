import { PRODUCT_NAME } from '../../shared/constants.js';
import type { MailMessage } from './message.js';

/** The kinds of mail the server sends; a queued mail records its kind. */
export const mailKinds = {
  verification: 'verification',
  accountExists: 'account_exists',
  passwordReset: 'password_reset',
  passwordChanged: 'password_changed',
} as const;

const signature = `\n\n— The ${PRODUCT_NAME} team`;

export const verificationMail = (to: string, link: string): MailMessage => ({
  kind: mailKinds.verification,
  to,
  link,
  subject: `Confirm your ${PRODUCT_NAME} account`,
  text:
    `Welcome to ${PRODUCT_NAME}.\n\nConfirm your e-mail address to finish creating your account:\n\n${link}\n\n` +
    `The link works once and expires in 24 hours. If you did not sign up, ignore this message.${signature}`,
});

export const accountExistsMail = (to: string, loginLink: string, resetLink: string): MailMessage => ({
  kind: mailKinds.accountExists,
  to,
  link: loginLink,
  subject: `You already have a ${PRODUCT_NAME} account`,
  text:
    `Someone tried to create a ${PRODUCT_NAME} account with this address, which already has one.\n\n` +
    `Sign in: ${loginLink}\nForgot your password? ${resetLink}\n\nIf this was not you, no action is needed.${signature}`,
});

export const passwordResetMail = (to: string, link: string): MailMessage => ({
  kind: mailKinds.passwordReset,
  to,
  link,
  subject: `Reset your ${PRODUCT_NAME} password`,
  text:
    `We received a request to reset the password of your ${PRODUCT_NAME} account.\n\n${link}\n\n` +
    `The link works once and expires in 1 hour. If you did not ask for this, ignore this message: ` +
    `your password stays the same.${signature}`,
});

export const passwordChangedMail = (to: string, resetLink: string): MailMessage => ({
  kind: mailKinds.passwordChanged,
  to,
  subject: `Your ${PRODUCT_NAME} password was changed`,
  text:
    `The password of your ${PRODUCT_NAME} account was just changed and every device was signed out.\n\n` +
    `If this was not you, reset your password now: ${resetLink}${signature}`,
});
