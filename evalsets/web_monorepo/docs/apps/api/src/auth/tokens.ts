import { createHash, randomBytes } from 'node:crypto';

import type { Role } from '@ferngrove/shared';
import { SignJWT, errors, jwtVerify } from 'jose';

// Two tokens, both in httpOnly cookies (ADR 0003):
//
// - access: a signed JWT, checked on every request without touching the database.
//   Short, so a stolen one is not worth much.
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
// - refresh: an opaque random string; only its SHA-256 is stored (RefreshToken table).
//   Rotated on every use. When it runs out the member has to type their password again.
export const REFRESH_TOKEN_TTL_DAYS = 30;

export const ACCESS_COOKIE = 'fg_access';
export const REFRESH_COOKIE = 'fg_refresh';
const ISSUER = 'api.ferngrove.example.com';
const ALG = 'HS256';

export type AccessClaims = { sub: string; wsp: string; role: Role };

export async function signAccessToken(claims: AccessClaims, secret: string): Promise<string> {
  return new SignJWT({ wsp: claims.wsp, role: claims.role })
    .setProtectedHeader({ alg: ALG })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(new TextEncoder().encode(secret));
}

type VerifyResult =
  | { ok: true; claims: AccessClaims }
  | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyAccessToken(token: string, secret: string): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      issuer: ISSUER,
      algorithms: [ALG],
      clockTolerance: 5,
    });
    return {
      ok: true,
      claims: { sub: String(payload.sub), wsp: String(payload.wsp), role: payload.role as Role },
    };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

export function newRefreshToken(): { token: string; hash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 24 * 3600 * 1000);
  return { token, hash: hashRefreshToken(token), expiresAt };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function cookieOptions(domain: string, secure: boolean, maxAgeSeconds: number) {
  return { httpOnly: true, secure, sameSite: 'lax' as const, domain, path: '/', maxAge: maxAgeSeconds };
}
