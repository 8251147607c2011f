// Local demo data: one studio ("Oakleaf Yoga"), an owner, a member with credits and a week of
// classes starting today. Run with `pnpm db:seed` after migrating.
import { randomBytes, scryptSync } from 'node:crypto';

import { DEFAULT_SESSION_MINUTES } from '@ferngrove/shared';
import { PrismaClient } from '@prisma/client';

const db = new PrismaClient();
const DEMO_PASSWORD = 'oakleaf-demo-pass';

function hash(pw: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('hex')}:${scryptSync(pw, salt, 64).toString('hex')}`;
}

async function main() {
  const ws = await db.workspace.upsert({
    where: { slug: 'oakleaf' },
    update: {},
    create: { name: 'Oakleaf Yoga', slug: 'oakleaf', plan: 'STUDIO' },
  });
  const room = await db.location.create({ data: { workspaceId: ws.id, name: 'Studio 1', address: '12 Example Lane' } });
  const owner = await db.user.create({
    data: { workspaceId: ws.id, email: 'owner@oakleaf.example.com', name: 'Ola Owner', role: 'OWNER', passwordHash: hash(DEMO_PASSWORD) },
  });
  const member = await db.user.create({
    data: { workspaceId: ws.id, email: 'member@oakleaf.example.com', name: 'Mo Member', passwordHash: hash(DEMO_PASSWORD) },
  });
  await db.creditLedger.create({ data: { memberId: member.id, delta: 10, reason: 'PURCHASE' } });

  const types = await Promise.all(
    ['Slow Flow', 'Reformer', 'Yin'].map((name) => db.classType.create({ data: { workspaceId: ws.id, name } })),
  );
  const today = new Date();
  today.setUTCHours(7, 0, 0, 0);
  for (let day = 0; day < 7; day++) {
    for (const [i, t] of types.entries()) {
      await db.classSession.create({
        data: {
          workspaceId: ws.id,
          locationId: room.id,
          classTypeId: t.id,
          instructorId: owner.id,
          startsAt: new Date(today.getTime() + day * 86_400_000 + i * 4 * 3_600_000),
          durationMinutes: t.name === 'Yin' ? 75 : DEFAULT_SESSION_MINUTES,
          capacity: t.name === 'Reformer' ? 12 : 20,
        },
      });
    }
  }
  process.stdout.write('seeded Oakleaf Yoga\n');
}

main().finally(() => db.$disconnect());
