import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { KnownPattern } from './form-messages';

/**
 * What the desktop shell's main process says of the app itself in English (src/main: the app://
 * forwarding of API calls, single sign-on in the system browser, the app's own updates), shown by
 * the portal: `knownText` shows it in the language chosen, as desktop-license-messages.ts does
 * for the license. tests/renderer/i18n/desktop-messages.test.ts checks it against main's sources.
 */
export const DESKTOP_APP_MESSAGES: readonly (readonly [string, MessageDescriptor])[] = [
  // An API call main could not forward (app-protocol.ts): the portal shows it as the call's failure.
  [
    'Cannot reach the server. Check your internet connection and try again.',
    msg({
      id: 'desktop.serverUnreachable',
      message: 'Cannot reach the server. Check your internet connection and try again.',
    }),
  ],
  [
    'Could not keep the sign-in on this computer. Restart the app and sign in again.',
    msg({
      id: 'desktop.tokenStorageFailed',
      message: 'Could not keep the sign-in on this computer. Restart the app and sign in again.',
    }),
  ],
  // Single sign-on through the system browser (sso-sign-in.ts, handlers.ts).
  [
    'Single sign-on is not available in this app. Sign in with your password.',
    msg({
      id: 'desktopSso.unavailable',
      message: 'Single sign-on is not available in this app. Sign in with your password.',
    }),
  ],
  [
    'The server did not start the sign-in.',
    msg({ id: 'desktopSso.notStarted', message: 'The server did not start the sign-in.' }),
  ],
  [
    'Could not open your web browser for the sign-in.',
    msg({ id: 'desktopSso.noBrowser', message: 'Could not open your web browser for the sign-in.' }),
  ],
  [
    'Continue in your web browser: sign in there, then come back to this window.',
    msg({
      id: 'desktopSso.inBrowser',
      message: 'Continue in your web browser: sign in there, then come back to this window.',
    }),
  ],
  // The app's own updates (updater-service.ts, updater-api.ts).
  [
    'Updates are checked once a license is activated on this machine.',
    msg({
      id: 'desktopUpdates.noLicense',
      message: 'Updates are checked once a license is activated on this machine.',
    }),
  ],
  [
    'Updates are not published for this system.',
    msg({ id: 'desktopUpdates.noPlatform', message: 'Updates are not published for this system.' }),
  ],
  [
    'Updates are checked in the installed app only, not in a development build.',
    msg({
      id: 'desktopUpdates.notInstalled',
      message: 'Updates are checked in the installed app only, not in a development build.',
    }),
  ],
  [
    'The downloaded update did not match its checksum and was discarded; nothing was installed. It will be downloaded again at the next check.',
    msg({
      id: 'desktopUpdates.checksum',
      message:
        'The downloaded update did not match its checksum and was discarded; nothing was installed. It will be downloaded again at the next check.',
    }),
  ],
  [
    'The update could not be checked or downloaded. It will be tried again later.',
    msg({
      id: 'desktopUpdates.failed',
      message: 'The update could not be checked or downloaded. It will be tried again later.',
    }),
  ],
  [
    'The update server sent an answer this app cannot read',
    msg({
      id: 'desktopUpdates.unreadable',
      message: 'The update server sent an answer this app cannot read',
    }),
  ],
  [
    'the update server did not answer in time',
    msg({ id: 'desktopUpdates.reasonTimeout', message: 'the update server did not answer in time' }),
  ],
  [
    'the update server could not be reached',
    msg({ id: 'desktopUpdates.reasonUnreachable', message: 'the update server could not be reached' }),
  ],
];

export const DESKTOP_APP_PATTERNS: readonly KnownPattern[] = [
  {
    // The reason is the license server's (desktop-license-messages.ts).
    pattern: /^Could not start the sign-in: (.+)\.$/,
    message: (match, { known }) => {
      const reason = known(match[1] ?? '');
      return msg({ id: 'desktopSso.notStartedBecause', message: `Could not start the sign-in: ${reason}.` });
    },
  },
  {
    pattern: /^the update server could not be reached \(([A-Z0-9_]+)\)$/,
    message: (match) => {
      const code = match[1] ?? '';
      return msg({
        id: 'desktopUpdates.reasonUnreachableCode',
        message: `the update server could not be reached (${code})`,
      });
    },
  },
  {
    pattern: /^the update server answered (\d{3})$/,
    message: (match) => {
      const status = match[1] ?? '';
      return msg({ id: 'desktopUpdates.reasonStatus', message: `the update server answered ${status}` });
    },
  },
  {
    pattern: /^Could not check for updates: (.+)\. It will be tried again later\.$/,
    message: (match, { known }) => {
      const reason = known(match[1] ?? '');
      return msg({
        id: 'desktopUpdates.notChecked',
        message: `Could not check for updates: ${reason}. It will be tried again later.`,
      });
    },
  },
  {
    pattern: /^The update server refused the check \((\d{3})\)$/,
    message: (match) => {
      const status = match[1] ?? '';
      return msg({
        id: 'desktopUpdates.refused',
        message: `The update server refused the check (${status})`,
      });
    },
  },
  {
    // electron-updater's own first line stays as it is: it names files and codes.
    pattern: /^The update could not be checked or downloaded: (.+)\. It will be tried again later\.$/,
    message: (match) => {
      const detail = match[1] ?? '';
      return msg({
        id: 'desktopUpdates.failedWith',
        message: `The update could not be checked or downloaded: ${detail}. It will be tried again later.`,
      });
    },
  },
];
