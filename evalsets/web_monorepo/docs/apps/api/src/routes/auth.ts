import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

import type { FastifyInstance, FastifyReply } from 'fastify';

import {
  ACCESS_COOKIE,
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_COOKIE,
  REFRESH_TOKEN_TTL_DAYS,
  cookieOptions,
  hashRefreshToken,
  newRefreshToken,
  signAccessToken,
} from '../auth/tokens.js';
import { AppError } from '../errors.js';
import { LoginBody } from '../schemas/auth.js';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const secure = app.config.isProd || app.config.NODE_ENV !== 'development';

  async function issueTokens(reply: FastifyReply, user: { id: string; workspaceId: string; role: 'OWNER' | 'STAFF' | 'MEMBER' }) {
    const access = await signAccessToken({ sub: user.id, wsp: user.workspaceId, role: user.role }, app.config.JWT_SECRET);
    const refresh = newRefreshToken();
    await app.prisma.refreshToken.create({
      data: { userId: user.id, tokenHash: refresh.hash, expiresAt: refresh.expiresAt },
    });
    reply
      .setCookie(ACCESS_COOKIE, access, cookieOptions(app.config.COOKIE_DOMAIN, secure, ACCESS_TOKEN_TTL_SECONDS))
      .setCookie(
        REFRESH_COOKIE,
        refresh.token,
        cookieOptions(app.config.COOKIE_DOMAIN, secure, REFRESH_TOKEN_TTL_DAYS * 24 * 3600),
      );
  }

  app.post('/login', async (req, reply) => {
    const { email, password } = LoginBody.parse(req.body);
    const user = await app.prisma.user.findUnique({ where: { email } });
    // same error and similar timing whether or not the email exists
    const ok = user ? await checkPassword(password, user.passwordHash) : await checkPassword(password, DUMMY_HASH);
    if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
    await issueTokens(reply, user);
    return reply.status(204).send();
  });

  app.post('/refresh', async (req, reply) => {
    const presented = req.cookies[REFRESH_COOKIE];
    if (!presented) throw new AppError('UNAUTHENTICATED');
    const row = await app.prisma.refreshToken.findUnique({
      where: { tokenHash: hashRefreshToken(presented) },
      include: { user: true },
    });
    if (!row || row.revokedAt || row.expiresAt < new Date()) throw new AppError('SESSION_EXPIRED');
    // rotation: the old refresh token is dead as soon as it has been used once
    await app.prisma.refreshToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    await issueTokens(reply, row.user);
    return reply.status(204).send();
  });

  app.post('/logout', async (req, reply) => {
    const presented = req.cookies[REFRESH_COOKIE];
    if (presented) {
      await app.prisma.refreshToken.updateMany({
        where: { tokenHash: hashRefreshToken(presented), revokedAt: null },
        data: { revokedAt: new Date() },
      });
    }
    return reply.clearCookie(ACCESS_COOKIE, { path: '/' }).clearCookie(REFRESH_COOKIE, { path: '/' }).status(204).send();
  });
}

// scrypt, N=16384 r=8 p=1, stored as "salt:hash" in hex
const DUMMY_HASH = `${randomBytes(16).toString('hex')}:${'0'.repeat(128)}`;

async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [saltHex, hashHex] = stored.split(':');
  if (!saltHex || !hashHex) return false;
  const derived = await scrypt(password, Buffer.from(saltHex, 'hex'), 64);
  const expected = Buffer.from(hashHex, 'hex');
  return expected.length === derived.length && timingSafeEqual(expected, derived);
}
