import dayjs, { type Dayjs } from 'dayjs';
import utcPlugin from 'dayjs/plugin/utc.js';

/*
 * Calendar arithmetic for the server and the portal, in one place. Adding months or years clamps
 * to the last day of the shorter month (31 January + 1 month = 28 or 29 February; 29 February
 * + 1 year = 28 February), where Date's own setters roll over into March.
 */
dayjs.extend(utcPlugin);

export type CalendarMoment = Dayjs;

/** A moment on the UTC calendar, where license periods, usage periods and reports are counted. */
export const utc = (moment: Date | string | number): CalendarMoment => dayjs.utc(moment);

/** A moment on the calendar of the browser or machine it runs on, where people pick days. */
export const local = (moment: Date | string | number): CalendarMoment => dayjs(moment);

/** The later of two ISO-8601 UTC timestamps (which compare as text); `a` may be unset. */
export const laterMoment = (a: string | null, b: string): string => (a !== null && a > b ? a : b);
