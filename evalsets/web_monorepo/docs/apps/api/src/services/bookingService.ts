import {
  BOOKING_HOLD_MINUTES,
  CANCELLATION_CUTOFF_HOURS,
  WAITLIST_MAX,
  hoursUntil,
} from '@ferngrove/shared';
import { Prisma, type PrismaClient } from '@prisma/client';
import type { FastifyBaseLogger } from 'fastify';

import { AppError } from '../errors.js';
import { jobs } from '../jobs/queue.js';
import type { AuthUser } from '../plugins/auth.js';
import type { CreateBookingInput } from '../schemas/booking.js';

const MAX_SERIALIZATION_RETRIES = 3;

export class BookingService {
  constructor(
    private readonly db: PrismaClient,
    private readonly log: FastifyBaseLogger,
  ) {}

  // Bookings are created in a SERIALIZABLE transaction, not Postgres' default READ COMMITTED.
  // Under READ COMMITTED two members pressing Book on the last spot at the same moment both
  // counted capacity - 1 and both got in: the Saturday reformer class at Oakleaf ended up
  // with 13 people on 12 machines (FG-287). With SERIALIZABLE one of the two transactions
  // fails with a serialization error (Prisma P2034); we retry it, and the retry sees the
  // class full and returns SESSION_FULL.
  async create(user: AuthUser, input: CreateBookingInput) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.$transaction((tx) => this.createInTx(tx, user, input), {
          isolationLevel: Prisma.TransactionIsolationLevel.Serializable,
          timeout: 5_000,
        });
      } catch (err) {
        const retryable =
          err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2034';
        if (!retryable || attempt >= MAX_SERIALIZATION_RETRIES) throw err;
        this.log.info({ attempt, sessionId: input.sessionId }, 'booking serialization retry');
      }
    }
  }

  private async createInTx(tx: Prisma.TransactionClient, user: AuthUser, input: CreateBookingInput) {
    const session = await tx.classSession.findFirst({
      where: { id: input.sessionId, workspaceId: user.workspaceId, cancelledAt: null },
    });
    if (!session) throw new AppError('SESSION_NOT_FOUND');

    const existing = await tx.booking.findFirst({
      where: { sessionId: session.id, memberId: user.id, status: { in: ['HELD', 'CONFIRMED'] } },
    });
    if (existing) throw new AppError('ALREADY_BOOKED');

    const taken = await tx.booking.count({
      where: { sessionId: session.id, status: { in: ['HELD', 'CONFIRMED'] } },
    });
    const seats = 1 + input.guests.length;
    if (taken + seats > session.capacity) throw new AppError('SESSION_FULL');

    if (input.useCredit) {
      const balance = await tx.creditLedger.aggregate({
        where: { memberId: user.id },
        _sum: { delta: true },
      });
      if ((balance._sum.delta ?? 0) < seats) throw new AppError('INSUFFICIENT_CREDITS');
      await tx.creditLedger.create({
        data: { memberId: user.id, delta: -seats, reason: 'BOOKING', sessionId: session.id },
      });
      return tx.booking.create({
        data: { sessionId: session.id, memberId: user.id, guests: input.guests, status: 'CONFIRMED' },
      });
    }

    // drop-in: hold the spot while the member pays; the expire-holds job releases it
    const heldUntil = new Date(Date.now() + BOOKING_HOLD_MINUTES * 60 * 1000);
    return tx.booking.create({
      data: {
        sessionId: session.id,
        memberId: user.id,
        guests: input.guests,
        status: 'HELD',
        heldUntil,
      },
    });
  }

  async cancel(user: AuthUser, bookingId: string) {
    const booking = await this.db.booking.findFirst({
      where: { id: bookingId, memberId: user.id, status: { in: ['HELD', 'CONFIRMED'] } },
      include: { session: true },
    });
    if (!booking) throw new AppError('NOT_FOUND');

    // inside the cutoff the booking is still cancelled (the spot goes to the waitlist) but
    // the credit is kept by the studio
    const late = hoursUntil(booking.session.startsAt) < CANCELLATION_CUTOFF_HOURS;
    const refund = !late && booking.status === 'CONFIRMED';

    await this.db.$transaction([
      this.db.booking.update({
        where: { id: booking.id },
        data: { status: late ? 'LATE_CANCELLED' : 'CANCELLED', cancelledAt: new Date() },
      }),
      ...(refund
        ? [
            this.db.creditLedger.create({
              data: { memberId: user.id, delta: 1 + booking.guests.length, reason: 'REFUND', sessionId: booking.sessionId },
            }),
          ]
        : []),
    ]);
    await jobs.waitlist.add('offer-spot', { sessionId: booking.sessionId });
    return { id: booking.id, refunded: refund, late };
  }

  async joinWaitlist(user: AuthUser, sessionId: string) {
    const count = await this.db.waitlistEntry.count({ where: { sessionId, offeredAt: null } });
    if (count >= WAITLIST_MAX) throw new AppError('WAITLIST_FULL');
    return this.db.waitlistEntry.create({ data: { sessionId, memberId: user.id } });
  }

  async listForMember(memberId: string, q: { cursor?: string; limit: number; status?: string }) {
    const rows = await this.db.booking.findMany({
      where: { memberId, ...(q.status ? { status: q.status as never } : {}) },
      orderBy: { createdAt: 'desc' },
      take: q.limit + 1,
      ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
      include: { session: { include: { classType: true } } },
    });
    const more = rows.length > q.limit;
    return { items: rows.slice(0, q.limit), nextCursor: more ? rows[q.limit - 1]?.id : null };
  }

  async listSessions(q: { from: string; days: number; locationId?: string }, user: AuthUser | null) {
    const from = new Date(q.from);
    const to = new Date(from.getTime() + q.days * 24 * 3600 * 1000);
    return this.db.classSession.findMany({
      where: { startsAt: { gte: from, lt: to }, cancelledAt: null, ...(q.locationId ? { locationId: q.locationId } : {}) },
      orderBy: { startsAt: 'asc' },
      include: { classType: true, instructor: true, _count: { select: { bookings: true } } },
    }).then((rows) => rows.map((s) => ({ ...s, viewerId: user?.id ?? null })));
  }

  async getSession(id: string, user: AuthUser | null) {
    return this.db.classSession.findUnique({
      where: { id },
      include: { classType: true, bookings: user ? { where: { memberId: user.id } } : false },
    });
  }
}
