import type { FastifyInstance } from 'fastify';

import { AppError } from '../errors.js';
import { requireAuth } from '../plugins/auth.js';
import { CreateBookingBody, ListBookingsQuery, ListSessionsQuery } from '../schemas/booking.js';
import { IdParam } from '../schemas/common.js';
import { BookingService } from '../services/bookingService.js';

export async function bookingRoutes(app: FastifyInstance): Promise<void> {
  const bookings = new BookingService(app.prisma, app.log);

  // public timetable; the web schedule page calls this from the server
  app.get('/sessions', async (req) => {
    const q = ListSessionsQuery.parse(req.query);
    return bookings.listSessions(q, req.user);
  });

  app.get('/sessions/:id', async (req) => {
    const { id } = IdParam.parse(req.params);
    const session = await bookings.getSession(id, req.user);
    if (!session) throw new AppError('SESSION_NOT_FOUND');
    return session;
  });

  app.get('/bookings', { preHandler: requireAuth }, async (req) => {
    const q = ListBookingsQuery.parse(req.query);
    return bookings.listForMember(req.user!.id, q);
  });

  app.post('/bookings', { preHandler: requireAuth }, async (req, reply) => {
    const body = CreateBookingBody.parse(req.body);
    const booking = await bookings.create(req.user!, body);
    // 201 for a confirmed booking, 202 when the spot is only held pending payment
    return reply.status(booking.status === 'HELD' ? 202 : 201).send(booking);
  });

  app.post('/bookings/:id/cancel', { preHandler: requireAuth }, async (req) => {
    const { id } = IdParam.parse(req.params);
    return bookings.cancel(req.user!, id);
  });

  app.post('/sessions/:id/waitlist', { preHandler: requireAuth }, async (req, reply) => {
    const { id } = IdParam.parse(req.params);
    const entry = await bookings.joinWaitlist(req.user!, id);
    return reply.status(201).send(entry);
  });
}
