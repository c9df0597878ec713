import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { KnownPattern } from './form-messages';

/**
 * What a license check says of a perpetual license whose update window ended (the server's
 * answer, and the portal's license flags): shared/update-window.ts builds it in English around
 * the versions, the server keeps it so, and these patterns show it in the language chosen.
 */
export const LICENSE_CHECK_MESSAGES: readonly (readonly [string, MessageDescriptor])[] = [
  ['License is valid', msg({ id: 'licenseCheck.valid', message: 'License is valid' })],
  [
    'Renew updates to get newer versions.',
    msg({ id: 'licenseCheck.renewNewer', message: 'Renew updates to get newer versions.' }),
  ],
];

export const LICENSE_CHECK_PATTERNS: readonly KnownPattern[] = [
  {
    pattern: /^License is valid\. (.+)$/,
    message: (match, { known }) => {
      const covered = known(match[1] ?? '');
      return msg({ id: 'licenseCheck.validCovered', message: `License is valid. ${covered}` });
    },
  },
  {
    pattern: /^Renew updates to get (\S+) and later\.$/,
    message: (match) => {
      const version = match[1] ?? '';
      return msg({ id: 'licenseCheck.renewFrom', message: `Renew updates to get ${version} and later.` });
    },
  },
  {
    pattern: /^Your license covers versions up to (\S+)\. (Renew .+)$/,
    message: (match, { known }) => {
      const version = match[1] ?? '';
      const renew = known(match[2] ?? '');
      return msg({
        id: 'licenseCheck.coversUpTo',
        message: `Your license covers versions up to ${version}. ${renew}`,
      });
    },
  },
  {
    pattern: /^Your license's update window ended before any version was released\. (Renew .+)$/,
    message: (match, { known }) => {
      const renew = known(match[1] ?? '');
      return msg({
        id: 'licenseCheck.noneReleased',
        message: `Your license's update window ended before any version was released. ${renew}`,
      });
    },
  },
];
