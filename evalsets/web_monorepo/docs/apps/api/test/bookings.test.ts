import { PrismaClient } from '@prisma/client';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { buildApp } from '../src/app.js';
import { signAccessToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';

const db = new PrismaClient({ datasources: { db: { url: process.env.DATABASE_URL_TEST } } });
let app: FastifyInstance;
const SECRET = 'test-secret-test-secret-test-secret-00';

async function tokenFor(memberId: string, workspaceId: string) {
  return signAccessToken({ sub: memberId, wsp: workspaceId, role: 'MEMBER' }, SECRET);
}

beforeAll(async () => {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: process.env.DATABASE_URL_TEST,
    JWT_SECRET: SECRET,
    COOKIE_DOMAIN: 'localhost',
    CORS_ORIGINS: 'http://localhost',
    SMTP_URL: 'smtp://localhost:1025',
    UPLOADS_BUCKET: 'test',
    TILLWAVE_API_KEY: 'test',
    TILLWAVE_WEBHOOK_SECRET: 'test',
  });
  app = await buildApp(config);
});

afterAll(async () => {
  await app.close();
  await db.$disconnect();
});

beforeEach(async () => {
  await db.$executeRawUnsafe('TRUNCATE "Booking", "WaitlistEntry", "CreditLedger" CASCADE');
});

describe('POST /v1/bookings', () => {
  it('rejects a booking when the class has no spots left', async () => {
    const { session, members, workspace } = await seedFullClass(db, { capacity: 1 });
    await db.booking.create({ data: { sessionId: session.id, memberId: members[0]!.id, status: 'CONFIRMED' } });
    await db.creditLedger.create({ data: { memberId: members[1]!.id, delta: 5, reason: 'PURCHASE' } });

    const res = await app.inject({
      method: 'POST',
      url: '/v1/bookings',
      headers: { authorization: `Bearer ${await tokenFor(members[1]!.id, workspace.id)}` },
      payload: { sessionId: session.id },
    });

    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('SESSION_FULL');
  });

  it('needs a login', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/bookings', payload: {} });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('validates the body', async () => {
    const { members, workspace } = await seedFullClass(db, { capacity: 4 });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/bookings',
      headers: { authorization: `Bearer ${await tokenFor(members[0]!.id, workspace.id)}` },
      payload: { sessionId: 'not-a-cuid' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
  });
});

async function seedFullClass(client: PrismaClient, opts: { capacity: number }) {
  const workspace = await client.workspace.create({ data: { name: 'Test Studio', slug: `t-${Date.now()}` } });
  const location = await client.location.create({ data: { workspaceId: workspace.id, name: 'Main room' } });
  const classType = await client.classType.create({ data: { workspaceId: workspace.id, name: 'Flow' } });
  const session = await client.classSession.create({
    data: {
      workspaceId: workspace.id,
      locationId: location.id,
      classTypeId: classType.id,
      startsAt: new Date(Date.now() + 72 * 3600 * 1000),
      capacity: opts.capacity,
    },
  });
  const members = await Promise.all(
    [1, 2].map((n) =>
      client.user.create({
        data: { workspaceId: workspace.id, email: `m${n}-${Date.now()}@test.example.com`, name: `M${n}`, passwordHash: 'x:y' },
      }),
    ),
  );
  return { workspace, session, members };
}
