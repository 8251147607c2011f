export * from './constants';
export * from './time';

// ---- types shared by web and api ----

export type Role = 'OWNER' | 'STAFF' | 'MEMBER';

export type Plan = 'STARTER' | 'STUDIO' | 'MULTI';

export type BookingStatus =
  | 'HELD'
  | 'CONFIRMED'
  | 'CANCELLED'
  | 'LATE_CANCELLED'
  | 'ATTENDED'
  | 'NO_SHOW';

/** One scheduled occurrence of a class, as the schedule page shows it. */
export type SessionSummary = {
  id: string;
  classTypeName: string;
  instructorName: string;
  /** ISO 8601, UTC */
  startsAt: string;
  durationMinutes: number;
  capacity: number;
  spotsLeft: number;
  onWaitlist: boolean;
  myBookingStatus: BookingStatus | null;
};

/** The error envelope every api error uses (see apps/api/src/errors.ts). */
export type ApiErrorBody = {
  error: {
    code: string;
    message: string;
    requestId?: string;
    details?: Record<string, unknown>;
  };
};

export type Paginated<T> = {
  items: T[];
  nextCursor: string | null;
};
