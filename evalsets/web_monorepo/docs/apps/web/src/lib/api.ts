import type { ApiErrorBody } from '@ferngrove/shared';

// In the browser we go through the Next rewrite (/api/*) in dev and straight to the api host
// in staging/prod; cookies are sent either way because of credentials: 'include'.
const BASE =
  typeof window === 'undefined'
    ? (process.env.NEXT_PUBLIC_API_URL ?? 'http://localhost:4000')
    : process.env.NODE_ENV === 'development'
      ? '/api'
      : (process.env.NEXT_PUBLIC_API_URL ?? '');

export class ApiRequestError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

type FetchOpts = RequestInit & { next?: { revalidate?: number } };

async function request<T>(path: string, init: FetchOpts = {}, retried = false): Promise<T> {
  const res = await fetch(`${BASE}${path}`, {
    ...init,
    credentials: 'include',
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

  if (res.ok) {
    return (res.status === 204 ? undefined : await res.json()) as T;
  }

  const body = (await res.json().catch(() => null)) as ApiErrorBody | null;
  const code = body?.error.code ?? 'UNKNOWN';

  // access token ran out: refresh once (rotates both cookies) and replay the request
  if (code === 'SESSION_EXPIRED' && !retried && typeof window !== 'undefined') {
    const refreshed = await fetch(`${BASE}/v1/auth/refresh`, { method: 'POST', credentials: 'include' });
    if (refreshed.ok) return request<T>(path, init, true);
    window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname)}`);
  }

  throw new ApiRequestError(res.status, code, body?.error.message ?? res.statusText, body?.error.requestId);
}

export function apiGet<T>(path: string, init?: FetchOpts): Promise<T> {
  return request<T>(path, { ...init, method: 'GET' });
}

export function apiPost<T = unknown>(path: string, body: unknown, init?: FetchOpts): Promise<T> {
  return request<T>(path, { ...init, method: 'POST', body: JSON.stringify(body) });
}
