import { dateTimeFormat } from './date-format';

/** "Jun 1, 2025, 2:32 PM" (in the language shown): when a payment or a charge was made. */
export const formatDateTime = (iso: string): string =>
  dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
/** "Jun 1, 2025" (in the language shown): the day a period ends or a charge is due. */
export const formatDate = (iso: string): string =>
  dateTimeFormat({ dateStyle: 'medium' }).format(new Date(iso));
