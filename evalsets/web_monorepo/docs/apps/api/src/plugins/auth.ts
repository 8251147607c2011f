import type { Role } from '@ferngrove/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { ACCESS_COOKIE, verifyAccessToken, type AccessClaims } from '../auth/tokens.js';
import { AppError } from '../errors.js';

export type AuthUser = {
  id: string;
  workspaceId: string;
  role: Role;
};

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    tokenExpired: boolean;
  }
}

// Browsers send the access token in the fg_access cookie (ADR 0003). The staff iPad app can't
// use cookies and sends `Authorization: Bearer <token>` instead; both are accepted.
function readToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length);
  return req.cookies[ACCESS_COOKIE];
}

export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('user', null);
    app.decorateRequest('tokenExpired', false);

    // Identify, don't enforce: routes decide with requireAuth / requireRole.
    app.addHook('onRequest', async (req) => {
      const token = readToken(req);
      if (!token) return;
      const result = await verifyAccessToken(token, app.config.JWT_SECRET);
      if (result.ok) {
        req.user = toUser(result.claims);
      } else if (result.reason === 'expired') {
        req.tokenExpired = true;
      }
    });
  },
  { name: 'auth' },
);

function toUser(claims: AccessClaims): AuthUser {
  return { id: claims.sub, workspaceId: claims.wsp, role: claims.role };
}

export async function requireAuth(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (req.user) return;
  // the web client refreshes and retries once on SESSION_EXPIRED
  throw new AppError(req.tokenExpired ? 'SESSION_EXPIRED' : 'UNAUTHENTICATED');
}

export function requireRole(...roles: Role[]) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await requireAuth(req, reply);
    if (!req.user || !roles.includes(req.user.role)) throw new AppError('FORBIDDEN');
  };
}
