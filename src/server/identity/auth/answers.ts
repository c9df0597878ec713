/** What the auth calls answer on success; the same words whatever account stands behind an address. */
export const authAnswers = {
  registered: 'Check your inbox: we sent a link to confirm your e-mail address.',
  verified: 'Your e-mail address is confirmed. You can sign in now.',
  alreadyVerified: 'Your e-mail address is already confirmed. You can sign in.',
  verificationResent: 'If that address has an account waiting for confirmation, we sent a new link.',
  resetRequested: 'If an account exists for that address, we sent a link to reset the password.',
  passwordReset: 'Your password was reset. Sign in with the new password.',
  passwordChanged: 'Your password was changed. Every device was signed out; sign in again.',
  loggedOut: 'Signed out',
  loggedOutEverywhere: 'Signed out on every device',
} as const;

/** A portal page with an e-mailed token, e.g. `https://portal/reset-password?token=…`. */
export const portalLink = (publicUrl: string, path: string, token?: string): string =>
  `${publicUrl}${path}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
