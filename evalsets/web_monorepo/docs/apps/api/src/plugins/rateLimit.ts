import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// Requests per minute. Signed-in budget raised from 60 to 120 in 1.7.0 (FG-377): the week
// view fires ~40 requests when it loads. Anonymous traffic (schedule, login, signup) is
// much tighter.
export const AUTHENTICATED_MAX = 120;
export const ANONYMOUS_MAX = 30;
export const WINDOW = '1 minute';

// Signed-in requests are counted per member, not per IP address. A studio's members all sit
// on the same studio wifi at check-in, so one public IP can be a whole class of people; when
// we keyed on IP the 07:00 class at Oakleaf locked itself out every morning (FG-362).
// Anonymous requests have nothing else to go on, so they still key on IP (req.ip is the
// client because TRUST_PROXY is on behind the ALB).
export function rateLimitKey(req: FastifyRequest): string {
  return req.user ? `user:${req.user.id}` : `ip:${req.ip}`;
}

export const rateLimitPlugin = fp(
  async (app) => {
    await app.register(rateLimit, {
      global: true,
      max: (req) => (req.user ? AUTHENTICATED_MAX : ANONYMOUS_MAX),
      timeWindow: WINDOW,
      keyGenerator: rateLimitKey,
      // shared across api tasks, otherwise each ECS task would hand out its own budget
      redis: app.redis,
      nameSpace: 'fg-rl:',
      skipOnError: true,
      allowList: (req) => req.url === '/healthz',
      addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true },
      errorResponseBuilder: (req, ctx) => ({
        statusCode: 429,
        error: {
          code: 'RATE_LIMITED',
          message: `Too many requests, try again in ${ctx.after}`,
          requestId: req.id,
        },
      }),
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
