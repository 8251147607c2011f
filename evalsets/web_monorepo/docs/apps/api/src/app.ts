import { randomUUID } from 'node:crypto';

import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import { PrismaClient } from '@prisma/client';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';

import type { AppConfig } from './config.js';
import { AppError, errorHandler } from './errors.js';
import { authPlugin } from './plugins/auth.js';
import { rateLimitPlugin } from './plugins/rateLimit.js';
import { authRoutes } from './routes/auth.js';
import { bookingRoutes } from './routes/bookings.js';

const REQUEST_ID_HEADER = 'x-request-id';
const INCOMING_ID = /^[A-Za-z0-9-]{8,64}$/;

export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    trustProxy: config.TRUST_PROXY,
    // 1 MiB. Image uploads never pass through the api: it hands out presigned S3 URLs.
    bodyLimit: 1_048_576,
    requestIdHeader: REQUEST_ID_HEADER,
    // keep the ALB's / the web app's id when it looks sane, otherwise make one
    genReqId: (req) => {
      const incoming = req.headers[REQUEST_ID_HEADER];
      return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    },
  });

  app.decorate('config', config);
  app.decorate('prisma', new PrismaClient());
  app.decorate('redis', new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 }));

  // Hook order is registration order, and it matters:
  //   1. echo the request id on every response, including ones rejected further down
  //   2. helmet security headers
  //   3. cors, so browser preflights get answered before anything can reject them
  //   4. cookie parsing: the access token is read from the fg_access cookie
  //   5. auth: verifies the token if there is one and sets req.user (does not reject)
  //   6. rate limit: after auth on purpose, because it keys on the user id
  // Routes then opt in to requireAuth / requireRole as a preHandler.
  app.addHook('onSend', async (req, reply) => {
    reply.header(REQUEST_ID_HEADER, req.id);
  });
  await app.register(helmet, { contentSecurityPolicy: false }); // JSON only; CSP lives in web
  await app.register(cors, { origin: config.CORS_ORIGINS, credentials: true, maxAge: 600 });
  await app.register(cookie);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((req) => {
    throw new AppError('NOT_FOUND', `No route for ${req.method} ${req.url}`);
  });

  app.get('/healthz', { logLevel: 'warn' }, async () => {
    await app.prisma.$queryRaw`SELECT 1`;
    return { ok: true, version: process.env.APP_VERSION ?? 'dev' };
  });

  await app.register(authRoutes, { prefix: '/v1/auth' });
  await app.register(bookingRoutes, { prefix: '/v1' });

  app.addHook('onClose', async () => {
    await app.prisma.$disconnect();
    app.redis.disconnect();
  });

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    prisma: PrismaClient;
    redis: Redis;
  }
}
