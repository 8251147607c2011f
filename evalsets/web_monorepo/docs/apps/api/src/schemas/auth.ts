import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@ferngrove/shared';
import { z } from 'zod';

const Email = z
  .string()
  .trim()
  .email()
  .max(254)
  .transform((s) => s.toLowerCase());

const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH);

export const SignupBody = z.object({
  email: Email,
  password: NewPassword,
  name: z.string().trim().min(1).max(80),
  // members join through their studio's invite link; staff are invited by the owner
  inviteToken: z.string().min(16),
});

export const LoginBody = z.object({
  email: Email,
  // no length rules on login: old accounts from before 1.0 can have 8-character passwords
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});

export const ResetPasswordBody = z.object({
  token: z.string().min(16),
  password: NewPassword,
});

export type SignupInput = z.infer<typeof SignupBody>;
export type LoginInput = z.infer<typeof LoginBody>;
