// The job worker: a separate ECS service (ferngrove-worker) running the same image as the api
// with `pnpm start:worker`. Not to be confused with Node worker threads; there are none.
import { BOOKING_HOLD_MINUTES, WAITLIST_OFFER_MINUTES, formatClassTime } from '@ferngrove/shared';
import { PrismaClient } from '@prisma/client';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import pino from 'pino';

import { loadConfig } from '../config.js';

import { jobs, registerSchedules } from './queue.js';

const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL, base: { service: 'worker' } });
const db = new PrismaClient();
const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
const mailer = nodemailer.createTransport(config.SMTP_URL);

const handlers: Record<string, (job: Job) => Promise<unknown>> = {
  async 'send-class-reminders'() {
    const from = new Date();
    from.setDate(from.getDate() + 1);
    from.setHours(0, 0, 0, 0);
    const to = new Date(from.getTime() + 24 * 3600 * 1000);
    const bookings = await db.booking.findMany({
      where: { status: 'CONFIRMED', session: { startsAt: { gte: from, lt: to } } },
      include: { member: true, session: { include: { classType: true, location: true } } },
    });
    for (const b of bookings) {
      await jobs.email.add('reminder', { bookingId: b.id }, { jobId: `reminder:${b.id}` });
    }
    return { queued: bookings.length };
  },

  async reminder(job) {
    const b = await db.booking.findUniqueOrThrow({
      where: { id: job.data.bookingId },
      include: { member: true, session: { include: { classType: true, location: true } } },
    });
    if (b.status !== 'CONFIRMED') return { skipped: true };
    await mailer.sendMail({
      from: config.MAIL_FROM,
      to: b.member.email,
      subject: `Tomorrow: ${b.session.classType.name} at ${formatClassTime(b.session.startsAt, 'HH:mm')}`,
      text: `See you at ${b.session.location.name}. Can't make it? Cancel in the app.`,
    });
  },

  async 'expire-holds'() {
    const cutoff = new Date(Date.now() - BOOKING_HOLD_MINUTES * 60 * 1000);
    const { count } = await db.booking.updateMany({
      where: { status: 'HELD', heldUntil: { lt: new Date() }, createdAt: { lt: cutoff } },
      data: { status: 'CANCELLED', cancelledAt: new Date() },
    });
    return { released: count };
  },

  async 'offer-spot'(job) {
    const next = await db.waitlistEntry.findFirst({
      where: { sessionId: job.data.sessionId, offeredAt: null },
      orderBy: { createdAt: 'asc' },
    });
    if (!next) return { offered: false };
    const expires = new Date(Date.now() + WAITLIST_OFFER_MINUTES * 60 * 1000);
    await db.waitlistEntry.update({ where: { id: next.id }, data: { offeredAt: new Date(), offerExpiresAt: expires } });
    return { offered: true, entryId: next.id };
  },
};

for (const name of ['email', 'holds', 'waitlist', 'maintenance'] as const) {
  const worker = new Worker(
    name,
    async (job) => {
      const handler = handlers[job.name];
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      return handler(job);
    },
    { connection, prefix: 'fg', concurrency: name === 'email' ? 10 : 2 },
  );
  worker.on('failed', (job, err) => log.warn({ queue: name, job: job?.name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job failed'));
}

await registerSchedules();
log.info('worker started');
