import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { LicenseTrialDetails } from '../../../../../shared/api/licenses';

/** Where a trial came from: the account's own start, a machine's before any account, or a checkout with a card. */
type TrialSource = LicenseTrialDetails['source'] | 'machine' | 'card';

const SOURCES: Record<TrialSource, { name: MessageDescriptor; started: MessageDescriptor }> = {
  account: { name: msg`Account trial`, started: msg`started from the account` },
  machine: { name: msg`Machine trial`, started: msg`started on a machine before the account existed` },
  card: { name: msg`Card trial`, started: msg`started at checkout with a card` },
};

/** "Account trial", "Machine trial", "Card trial": the trial's source as the licenses list names it. */
export const trialSourceName = (source: TrialSource, i18n: I18n): string => i18n._(SOURCES[source].name);

/** "started from the account", for the sentence that tells a trial's story. */
export const trialSourceStarted = (source: TrialSource, i18n: I18n): string =>
  i18n._(SOURCES[source].started);
