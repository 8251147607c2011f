import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';

// Every error the api sends uses one envelope:
//   { "error": { "code": "SESSION_FULL", "message": "...", "requestId": "..." } }
// Clients switch on `code`, never on `message`.
//
// Careful with "session": SESSION_EXPIRED is about the member's login, while SESSION_FULL and
// SESSION_NOT_FOUND are about a class session (one scheduled occurrence of a class).
export const ErrorCodes = {
  VALIDATION_FAILED: { status: 400, message: 'Request validation failed' },
  INVALID_CREDENTIALS: { status: 401, message: 'Email or password is incorrect' },
  UNAUTHENTICATED: { status: 401, message: 'Sign in required' },
  SESSION_EXPIRED: { status: 401, message: 'Your login has expired' },
  FORBIDDEN: { status: 403, message: 'You do not have access to this' },
  PLAN_LIMIT_REACHED: { status: 403, message: 'Your plan does not allow this' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  SESSION_NOT_FOUND: { status: 404, message: 'Class not found' },
  ALREADY_BOOKED: { status: 409, message: 'You are already booked on this class' },
  SESSION_FULL: { status: 409, message: 'This class is full' },
  WAITLIST_FULL: { status: 409, message: 'The waitlist for this class is full' },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email already exists' },
  HOLD_EXPIRED: { status: 410, message: 'Your reserved spot was released' },
  INSUFFICIENT_CREDITS: { status: 402, message: 'No class credits left' },
  CANCELLATION_WINDOW_CLOSED: { status: 422, message: 'Too late to cancel without losing the credit' },
  RATE_LIMITED: { status: 429, message: 'Too many requests' },
  INTERNAL: { status: 500, message: 'Something went wrong' },
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? ErrorCodes[code].message);
    this.name = 'AppError';
    this.status = ErrorCodes[code].status;
  }
}

export function errorHandler(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    return reply.status(err.status).send({
      error: { code: err.code, message: err.message, requestId: req.id, details: err.details },
    });
  }
  if (err instanceof ZodError) {
    return reply.status(400).send({
      error: {
        code: 'VALIDATION_FAILED',
        message: ErrorCodes.VALIDATION_FAILED.message,
        requestId: req.id,
        details: { issues: err.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) },
      },
    });
  }
  // @fastify/rate-limit and body parsing errors carry their own status code
  const status = 'statusCode' in err && err.statusCode ? err.statusCode : 500;
  if (status >= 500) req.log.error({ err }, 'unhandled error');
  return reply.status(status).send({
    error: {
      code: status === 429 ? 'RATE_LIMITED' : status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED',
      message: status >= 500 ? ErrorCodes.INTERNAL.message : err.message,
      requestId: req.id,
    },
  });
}
