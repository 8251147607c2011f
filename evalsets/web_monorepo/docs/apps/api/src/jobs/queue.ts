import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';

// BullMQ on the same Redis as the rate limiter (ADR 0005). Queues are split by what the
// jobs touch so a flood of emails can't delay hold expiry.
export const QUEUE_NAMES = ['email', 'holds', 'waitlist', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  // 30s, 60s, 120s, 240s between the five attempts
  backoff: { type: 'exponential', delay: 30_000 },
  removeOnComplete: { count: 1_000 },
  // failed jobs are kept until someone looks at them: docs/runbooks/stuck-jobs.md
  removeOnFail: false,
};

const connection = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379', {
  maxRetriesPerRequest: null, // required by BullMQ
});

function makeQueue(name: QueueName): Queue {
  return new Queue(name, { connection, prefix: 'fg', defaultJobOptions });
}

export const jobs: Record<QueueName, Queue> = {
  email: makeQueue('email'),
  holds: makeQueue('holds'),
  waitlist: makeQueue('waitlist'),
  maintenance: makeQueue('maintenance'),
};

// Repeatable jobs. Times are studio local time (every customer is in the UK so far).
// The worker registers these on start; changing a pattern here replaces the old one.
export const SCHEDULES: { name: string; queue: QueueName; pattern: string; tz: string }[] = [
  // the evening before: one email per member booked on tomorrow's classes
  { name: 'send-class-reminders', queue: 'email', pattern: '0 18 * * *', tz: 'Europe/London' },
  // release drop-in spots whose payment window (BOOKING_HOLD_MINUTES) has passed
  { name: 'expire-holds', queue: 'holds', pattern: '* * * * *', tz: 'Europe/London' },
  // offers that nobody confirmed in time go to the next person on the waitlist
  { name: 'advance-waitlists', queue: 'waitlist', pattern: '*/5 * * * *', tz: 'Europe/London' },
  // revoked and expired refresh tokens, and idempotency keys older than 7 days
  { name: 'purge-tokens', queue: 'maintenance', pattern: '30 3 * * *', tz: 'Europe/London' },
];

export async function registerSchedules(): Promise<void> {
  for (const s of SCHEDULES) {
    await jobs[s.queue].upsertJobScheduler(s.name, { pattern: s.pattern, tz: s.tz }, { name: s.name });
  }
}
