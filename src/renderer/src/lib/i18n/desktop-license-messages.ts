import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { KnownPattern } from './form-messages';

/**
 * What the desktop shell's main process says of this machine's license in English (src/main:
 * licensing, license files, floating seats, usage; src/shared/lease.ts), which the portal shows
 * over the bridge: `knownText` shows it in the language chosen, so main keeps one English and
 * knows nothing of the language shown. The English is written out as main writes it;
 * tests/renderer/i18n/desktop-messages.test.ts checks it against main's sources.
 */
export const DESKTOP_LICENSE_MESSAGES: readonly (readonly [string, MessageDescriptor])[] = [
  // A check whose answer main does not trust, or cannot read (licensing.ts, licensing-api.ts).
  [
    "The license server's answer could not be verified. Check that the system clock is correct and that this app is up to date.",
    msg({
      id: 'desktop.unverifiedAnswer',
      message:
        "The license server's answer could not be verified. Check that the system clock is correct and that this app is up to date.",
    }),
  ],
  [
    "The license server's answer was not the answer to this check, so it was not trusted. Check your network connection and try again.",
    msg({
      id: 'desktop.replayedAnswer',
      message:
        "The license server's answer was not the answer to this check, so it was not trusted. Check your network connection and try again.",
    }),
  ],
  [
    'The license server sent an answer this app cannot read',
    msg({
      id: 'desktop.unreadableAnswer',
      message: 'The license server sent an answer this app cannot read',
    }),
  ],
  // Why the license server was not heard, inside the offline messages below.
  [
    'the license server did not answer in time',
    msg({ id: 'desktop.reasonTimeout', message: 'the license server did not answer in time' }),
  ],
  [
    'the license server could not be reached',
    msg({ id: 'desktop.reasonUnreachable', message: 'the license server could not be reached' }),
  ],
  // Offline, from the lease this machine keeps.
  [
    'Your free trial has ended. Connect to the internet and buy the plan to keep using it.',
    msg({
      id: 'desktop.trialEndedOffline',
      message: 'Your free trial has ended. Connect to the internet and buy the plan to keep using it.',
    }),
  ],
  [
    'This license has expired. Connect to the internet to renew it.',
    msg({
      id: 'desktop.licenseExpiredOffline',
      message: 'This license has expired. Connect to the internet to renew it.',
    }),
  ],
  [
    'Offline — license verified from the signed lease; less than an hour left',
    msg({
      id: 'desktop.offlineValidUnderAnHour',
      message: 'Offline — license verified from the signed lease; less than an hour left',
    }),
  ],
  // A lease that does not verify (shared/lease.ts).
  [
    'The offline license is damaged; connect to the internet to check the license again',
    msg({
      id: 'lease.malformed',
      message: 'The offline license is damaged; connect to the internet to check the license again',
    }),
  ],
  [
    'The offline license was signed by an unknown key; connect to the internet to renew it',
    msg({
      id: 'lease.unknownKey',
      message: 'The offline license was signed by an unknown key; connect to the internet to renew it',
    }),
  ],
  [
    'The offline license uses an unexpected signature algorithm',
    msg({
      id: 'lease.wrongAlgorithm',
      message: 'The offline license uses an unexpected signature algorithm',
    }),
  ],
  [
    'The offline license has been altered; connect to the internet to check the license again',
    msg({
      id: 'lease.badSignature',
      message: 'The offline license has been altered; connect to the internet to check the license again',
    }),
  ],
  [
    'The offline license belongs to another machine',
    msg({ id: 'lease.wrongHardware', message: 'The offline license belongs to another machine' }),
  ],
  [
    'The offline license claims a longer validity than any license server issues; connect to the internet to check the license again',
    msg({
      id: 'lease.lifetimeTooLong',
      message:
        'The offline license claims a longer validity than any license server issues; connect to the internet to check the license again',
    }),
  ],
  [
    'The offline grace period has ended; connect to the internet to check the license',
    msg({
      id: 'lease.expired',
      message: 'The offline grace period has ended; connect to the internet to check the license',
    }),
  ],
  [
    'The system clock is earlier than when the license was last checked; correct the clock',
    msg({
      id: 'lease.clockRolledBack',
      message: 'The system clock is earlier than when the license was last checked; correct the clock',
    }),
  ],
  // A license file imported for a machine without network (offline-activation.ts).
  [
    'This is not a license file. Choose the file the portal gave for this machine’s activation request.',
    msg({
      id: 'licenseFile.notALicenseFile',
      message:
        'This is not a license file. Choose the file the portal gave for this machine’s activation request.',
    }),
  ],
  [
    'This build of the app has no license server keys built in, so it cannot check a license file.',
    msg({
      id: 'licenseFile.noTrustedKeys',
      message:
        'This build of the app has no license server keys built in, so it cannot check a license file.',
    }),
  ],
  [
    'This license file does not answer an activation request written on this machine. Write a request here and upload it in the portal.',
    msg({
      id: 'licenseFile.notRequestedHere',
      message:
        'This license file does not answer an activation request written on this machine. Write a request here and upload it in the portal.',
    }),
  ],
  [
    'This license file was signed out on this machine; its seat was given back. Write a new activation request.',
    msg({
      id: 'licenseFile.signedOut',
      message:
        'This license file was signed out on this machine; its seat was given back. Write a new activation request.',
    }),
  ],
  [
    'This license file has been altered; download it again from the portal.',
    msg({
      id: 'licenseFile.mismatch',
      message: 'This license file has been altered; download it again from the portal.',
    }),
  ],
  [
    'This license file is for another machine.',
    msg({ id: 'licenseFile.wrongHardware', message: 'This license file is for another machine.' }),
  ],
  [
    'This license file has expired. Write a new activation request and upload it in the portal.',
    msg({
      id: 'licenseFile.expired',
      message: 'This license file has expired. Write a new activation request and upload it in the portal.',
    }),
  ],
  [
    'This license file claims a longer validity than the license server issues.',
    msg({
      id: 'licenseFile.lifetimeTooLong',
      message: 'This license file claims a longer validity than the license server issues.',
    }),
  ],
  [
    'This license file cannot be used.',
    msg({ id: 'licenseFile.unusable', message: 'This license file cannot be used.' }),
  ],
  [
    'This license has expired.',
    msg({ id: 'licenseFile.licenseExpired', message: 'This license has expired.' }),
  ],
  // This machine's floating seat (floating-seat.ts).
  ['No floating license', msg({ id: 'floatingSeat.none', message: 'No floating license' })],
  ['The seat was given back', msg({ id: 'floatingSeat.givenBack', message: 'The seat was given back' })],
  // What this machine may still use (usage-meter.ts).
  [
    'What the license server counts this period, less what this machine has not sent yet',
    msg({
      id: 'desktopUsage.server',
      message: 'What the license server counts this period, less what this machine has not sent yet',
    }),
  ],
  [
    'Offline: what this machine’s license reserved for use offline, less what was used under it',
    msg({
      id: 'desktopUsage.reservation',
      message: 'Offline: what this machine’s license reserved for use offline, less what was used under it',
    }),
  ],
];

const count = (text: string | undefined): number => Number(text ?? '');

export const DESKTOP_LICENSE_PATTERNS: readonly KnownPattern[] = [
  {
    // Node's network error code ("ECONNREFUSED") stays as it is.
    pattern: /^the license server could not be reached \(([A-Z0-9_]+)\)$/,
    message: (match) => {
      const code = match[1] ?? '';
      return msg({
        id: 'desktop.reasonUnreachableCode',
        message: `the license server could not be reached (${code})`,
      });
    },
  },
  {
    pattern: /^the license server answered (\d{3})$/,
    message: (match) => {
      const status = match[1] ?? '';
      return msg({ id: 'desktop.reasonStatus', message: `the license server answered ${status}` });
    },
  },
  {
    pattern:
      /^Offline: (.+)\. Offline use needs the license server's signing keys built into this app, and this build has none; connect to the internet to check the license\.$/,
    message: (match, { known }) => {
      const reason = known(match[1] ?? '');
      return msg({
        id: 'desktop.offlineWithoutKeys',
        message: `Offline: ${reason}. Offline use needs the license server's signing keys built into this app, and this build has none; connect to the internet to check the license.`,
      });
    },
  },
  {
    pattern:
      /^Offline: (.+), and this machine has no offline license yet\. Connect to the internet to check the license\.$/,
    message: (match, { known }) => {
      const reason = known(match[1] ?? '');
      return msg({
        id: 'desktop.offlineWithoutLease',
        message: `Offline: ${reason}, and this machine has no offline license yet. Connect to the internet to check the license.`,
      });
    },
  },
  {
    pattern: /^Offline: (.+)\. Connect to the internet to start the free trial\.$/,
    message: (match, { known }) => {
      const reason = known(match[1] ?? '');
      return msg({
        id: 'desktop.machineTrialOffline',
        message: `Offline: ${reason}. Connect to the internet to start the free trial.`,
      });
    },
  },
  {
    // shared/bridge.ts's offlineValidMessage, with describeGraceRemaining's days or hours.
    pattern: /^Offline — license verified from the signed lease; (\d+) days? left$/,
    message: (match) => {
      const days = count(match[1]);
      return msg({
        id: 'desktop.offlineValidDays',
        message: plural(days, {
          one: 'Offline — license verified from the signed lease; # day left',
          other: 'Offline — license verified from the signed lease; # days left',
        }),
      });
    },
  },
  {
    pattern: /^Offline — license verified from the signed lease; (\d+) hours? left$/,
    message: (match) => {
      const hours = count(match[1]);
      return msg({
        id: 'desktop.offlineValidHours',
        message: plural(hours, {
          one: 'Offline — license verified from the signed lease; # hour left',
          other: 'Offline — license verified from the signed lease; # hours left',
        }),
      });
    },
  },
  {
    pattern: /^Activated by license file, valid offline for (\d+) more days\.$/,
    message: (match) => {
      const days = count(match[1]);
      return msg({
        id: 'licenseFile.validFor',
        message: plural(days, {
          one: 'Activated by license file, valid offline for # more day.',
          other: 'Activated by license file, valid offline for # more days.',
        }),
      });
    },
  },
  {
    // Main writes the day as an ISO timestamp; the language shown writes it its own way.
    pattern: /^This machine borrowed a seat until (\S+): it runs offline until then\.$/,
    message: (match, { dateTime }) => {
      const until = dateTime(match[1] ?? '');
      return msg({
        id: 'floatingSeat.borrowed',
        message: `This machine borrowed a seat until ${until}: it runs offline until then.`,
      });
    },
  },
  {
    pattern: /^This machine holds one of (\d+) floating seats \((\d+) in use\)\.$/,
    message: (match, { number }) => {
      const seats = count(match[1]);
      const inUse = number(count(match[2]));
      return msg({
        id: 'floatingSeat.held',
        message: plural(seats, {
          one: `This machine holds the one floating seat (${inUse} in use).`,
          other: `This machine holds one of # floating seats (${inUse} in use).`,
        }),
      });
    },
  },
  {
    pattern: /^Offline on a borrowed seat until (\S+)\.$/,
    message: (match, { dateTime }) => {
      const until = dateTime(match[1] ?? '');
      return msg({
        id: 'floatingSeat.offlineBorrowed',
        message: `Offline on a borrowed seat until ${until}.`,
      });
    },
  },
  {
    pattern: /^Offline: (.+)\. The app needs the license server to take a floating seat\.$/,
    message: (match, { known }) => {
      const reason = known(match[1] ?? '');
      return msg({
        id: 'floatingSeat.offline',
        message: `Offline: ${reason}. The app needs the license server to take a floating seat.`,
      });
    },
  },
];
