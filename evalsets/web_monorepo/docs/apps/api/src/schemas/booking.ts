import { MAX_GUESTS_PER_BOOKING } from '@ferngrove/shared';
import { z } from 'zod';

import { IsoDateTime, PaginationQuery } from './common.js';

export const CreateBookingBody = z.object({
  sessionId: z.string().cuid(),
  // a guest on the member's booking (a friend's first class); studios allow one at most
  guests: z.array(z.string().trim().min(1).max(80)).max(MAX_GUESTS_PER_BOOKING).default([]),
  // false = pay for a drop-in with Tillwave instead of using a class credit
  useCredit: z.boolean().default(true),
});

export const ListBookingsQuery = PaginationQuery.extend({
  status: z.enum(['HELD', 'CONFIRMED', 'CANCELLED', 'LATE_CANCELLED', 'ATTENDED', 'NO_SHOW']).optional(),
  from: IsoDateTime.optional(),
  to: IsoDateTime.optional(),
});

export const ListSessionsQuery = z.object({
  from: IsoDateTime,
  days: z.coerce.number().int().min(1).max(14).default(7),
  locationId: z.string().cuid().optional(),
});

export type CreateBookingInput = z.infer<typeof CreateBookingBody>;
