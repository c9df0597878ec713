const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** "Jun 1, 2025, 2:32 PM": when a payment or a charge was made. */
export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));
/** "Jun 1, 2025": the day a period ends or a charge is due. */
export const formatDate = (iso: string): string => dateOnly.format(new Date(iso));
