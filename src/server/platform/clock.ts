/** Source of the current time; tests pass a controllable one to exercise expiry and lockouts. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock): string => clock.now().toISOString();

export const isoAfterSeconds = (clock: Clock, seconds: number): string =>
  new Date(clock.now().getTime() + seconds * 1000).toISOString();
