// Business rules shared by web and api. Change them here and nowhere else: the api enforces
// them and the web app shows them to members, and the two drifted apart twice in 2024.

/** Minutes a drop-in spot stays reserved for a member while they pay with Tillwave. */
export const BOOKING_HOLD_MINUTES = 10;

/**
 * Hours before class start after which cancelling no longer gives the credit back.
 * 24 until 1.5.0, now 12 (FG-318); see CHANGELOG.md for why.
 */
export const CANCELLATION_CUTOFF_HOURS = 12;

/** Password rules for signup and password reset (login itself accepts older passwords). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** Length of a class session when staff don't give one. */
export const DEFAULT_SESSION_MINUTES = 60;

/** Guests a member may bring on one booking. */
export const MAX_GUESTS_PER_BOOKING = 1;

/** People who can queue for one full class session. */
export const WAITLIST_MAX = 15;

/** How long a member offered a spot from the waitlist has to accept it. */
export const WAITLIST_OFFER_MINUTES = 90;

/**
 * What each plan includes. Limits are per workspace (one studio business: the Workspace
 * model in prisma/schema.prisma), not per location. null = unlimited.
 */
export const PLAN_LIMITS = {
  STARTER: { staffSeats: 3, locations: 1, activeMembers: 150 },
  STUDIO: { staffSeats: 10, locations: 2, activeMembers: 1_000 },
  MULTI: { staffSeats: 40, locations: 10, activeMembers: null },
} as const;

export const DEFAULT_TIMEZONE = 'Europe/London';
export const SUPPORT_EMAIL = 'help@ferngrove.example.com';
