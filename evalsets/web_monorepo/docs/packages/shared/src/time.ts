import { differenceInMinutes, startOfWeek } from 'date-fns';
import { formatInTimeZone, toZonedTime } from 'date-fns-tz';

import { CANCELLATION_CUTOFF_HOURS, DEFAULT_TIMEZONE } from './constants';

// All dates travel as UTC ISO strings. They are turned into studio local time only for
// display, and for "which week/day is this" questions.

export function formatClassTime(iso: string | Date, pattern: string, tz = DEFAULT_TIMEZONE): string {
  return formatInTimeZone(iso, tz, pattern);
}

/** Hours from now until `iso` (negative once it has started). */
export function hoursUntil(iso: string | Date, now: Date = new Date()): number {
  return differenceInMinutes(new Date(iso), now) / 60;
}

/** True while a member can still cancel and get their credit back. */
export function canCancelForFree(startsAt: string | Date, now: Date = new Date()): boolean {
  return hoursUntil(startsAt, now) >= CANCELLATION_CUTOFF_HOURS;
}

/** Monday 00:00 in the studio's timezone, returned as a UTC Date. Weeks start on Monday. */
export function startOfStudioWeek(d: Date, tz = DEFAULT_TIMEZONE): Date {
  const local = startOfWeek(toZonedTime(d, tz), { weekStartsOn: 1 });
  const offsetMinutes = Number(formatInTimeZone(local, tz, 'xxx').replace(':', '')) / 100 * 60;
  return new Date(local.getTime() - offsetMinutes * 60 * 1000);
}
