'use client';

import { PASSWORD_MIN_LENGTH } from '@ferngrove/shared';
import { Button } from '@ferngrove/ui';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';

import { apiPost, ApiRequestError } from '@/lib/api';

export default function LoginPage() {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const form = new FormData(e.currentTarget);
    setBusy(true);
    try {
      await apiPost('/v1/auth/login', {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
      });
      // only allow relative return paths, never an absolute URL from the query string
      const next = params.get('next');
      router.replace(next && next.startsWith('/') && !next.startsWith('//') ? next : '/schedule');
    } catch (err) {
      if (err instanceof ApiRequestError && err.code === 'INVALID_CREDENTIALS') {
        setError('That email and password do not match.');
      } else if (err instanceof ApiRequestError && err.code === 'RATE_LIMITED') {
        setError('Too many attempts. Wait a minute and try again.');
      } else {
        setError('Something went wrong. Please try again.');
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="auth-form" noValidate>
      <h1>Log in</h1>
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          minLength={PASSWORD_MIN_LENGTH}
          required
        />
      </label>
      {error && <p role="alert">{error}</p>}
      <Button type="submit" loading={busy}>
        Log in
      </Button>
      <a href="/forgot-password">Forgot your password?</a>
    </form>
  );
}
