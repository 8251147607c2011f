import { z } from 'zod';

// Every runtime setting comes from environment variables and is validated once, at boot.
// Locally they come from the root .env (copy .env.example); on ECS from the task definition,
// with secrets injected from AWS Secrets Manager (ferngrove/<env>/api).
// A missing or malformed value stops the process before it listens.

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  API_PORT: z.coerce.number().int().positive().default(4000),
  API_HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url(),
  REDIS_URL: z.string().url(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters'),
  COOKIE_DOMAIN: z.string().min(1),
  CORS_ORIGINS: z
    .string()
    .transform((s) => s.split(',').map((o) => o.trim()).filter(Boolean)),
  SMTP_URL: z.string().min(1),
  MAIL_FROM: z.string().default('Ferngrove <no-reply@ferngrove.example.com>'),
  UPLOADS_BUCKET: z.string().min(1),
  S3_ENDPOINT: z.string().url().optional(),
  TILLWAVE_API_KEY: z.string().min(1),
  TILLWAVE_WEBHOOK_SECRET: z.string().min(1),
  FAULTLINE_DSN: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
  // true behind the ALB so req.ip is the client, not the load balancer
  TRUST_PROXY: bool.default('false'),
});

export type AppConfig = z.infer<typeof EnvSchema> & { isProd: boolean };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `  ${i.path.join('.')}: ${i.message}`)
      .join('\n');
    // eslint-disable-next-line no-console -- the logger does not exist yet
    console.error(`Invalid environment, refusing to start:\n${issues}`);
    process.exit(1);
  }
  return { ...parsed.data, isProd: parsed.data.NODE_ENV === 'production' };
}
