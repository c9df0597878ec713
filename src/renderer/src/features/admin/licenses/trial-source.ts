import type { LicenseTrialDetails } from '../../../../../shared/api/licenses';

/** Where a trial came from: the account's own start, a machine's before any account, or a checkout with a card. */
type TrialSource = LicenseTrialDetails['source'] | 'machine' | 'card';

const SOURCES: Record<TrialSource, { name: string; started: string }> = {
  account: { name: 'Account trial', started: 'started from the account' },
  machine: { name: 'Machine trial', started: 'started on a machine before the account existed' },
  card: { name: 'Card trial', started: 'started at checkout with a card' },
};

/** "Account trial", "Machine trial", "Card trial": the trial's source as the licenses list names it. */
export const trialSourceName = (source: TrialSource): string => SOURCES[source].name;

/** "started from the account", for the sentence that tells a trial's story. */
export const trialSourceStarted = (source: TrialSource): string => SOURCES[source].started;
