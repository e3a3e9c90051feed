import { existsSync } from "node:fs";
import { z } from "zod";

/** Loads `.env` from the working folder when present; real environment variables win. */
export function loadDotenv(file = ".env"): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

// Development defaults. Production refuses to start with these.
const DEV_SESSION_SECRET = "haven-dev-session-secret-change-me-0123456789";

/** An unset optional variable: docker-compose passes `${VAR:-}` through as an empty string. */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <S extends z.ZodType>(schema: S) => z.preprocess(blankToUndefined, schema.optional());

/** Whether Intl knows this IANA time zone (e.g. America/Toronto); business-time.ts formats with it. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * TRUST_PROXY as Express takes it: false/true, a hop count, or addresses and subnets
 * ("loopback", "10.0.0.0/8, 127.0.0.1"). Off by default: trusting X-Forwarded-For when Haven is
 * reached directly would let any client pick its own address (and escape the login limits).
 */
export function trustProxySetting(value: string): boolean | number | string {
  const v = value.toLowerCase();
  if (["false", "0", "off", "no"].includes(v)) return false;
  if (["true", "on", "yes"].includes(v)) return true;
  if (/^\d+$/.test(v)) return Number(v);
  return value;
}

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: optional(z.string().url()),
  DATABASE_URL: optional(z.string()),
  DATA_DIR: z.string().default(".data"),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(5433),
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").default(DEV_SESSION_SECRET),
  BUSINESS_TZ: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .refine(isTimeZone, { error: (issue) => `"${String(issue.input)}" is not a time zone this runtime knows; use an IANA name such as America/Toronto` })
      .default("America/Toronto"),
  ),
  CONTACT_PHONE: z.string().default("(306) 555-0142"),
  CONTACT_EMAIL: z.string().email().default("hello@havenhomehealth.ca"),
  SUPPORT_EMAIL: z.string().email().default("support@havenhomehealth.ca"),
  MAIL_FROM: z.string().default("Haven <no-reply@havenhomehealth.ca>"),
  SMTP_URL: optional(z.string()),
  STRIPE_SECRET_KEY: optional(z.string()),
  STRIPE_PUBLISHABLE_KEY: optional(z.string()),
  STRIPE_WEBHOOK_SECRET: optional(z.string()),
  STRIPE_API_BASE: optional(z.string().url()),
  // Express's 'trust proxy': off unless Haven sits behind a proxy that sets X-Forwarded-For (see README).
  TRUST_PROXY: z.preprocess(blankToUndefined, z.string().trim().default("false").transform(trustProxySetting)),
  WORKER_MODE: z.enum(["inline", "separate", "off"]).default("inline"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DEMO_STAFF_EMAIL: z.string().email().default("demo@havenhomehealth.ca"),
  DEMO_STAFF_PASSWORD: z.string().default("haven-demo-2024"),
});

export type Env = z.infer<typeof schema>;

export class ConfigError extends Error {}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join("; ")}`);
  }
  const env = parsed.data;
  // Stripe mode's payment page mounts the Payment Element, which needs the publishable key.
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_PUBLISHABLE_KEY) {
    throw new ConfigError(
      "Invalid configuration: STRIPE_PUBLISHABLE_KEY must be set when STRIPE_SECRET_KEY is (the /checkout page needs it for Stripe's Payment Element); unset STRIPE_SECRET_KEY for demo mode",
    );
  }
  if (env.NODE_ENV === "production") {
    if (env.SESSION_SECRET === DEV_SESSION_SECRET) {
      throw new ConfigError("Invalid configuration: SESSION_SECRET must be set in production");
    }
    if (!env.DATABASE_URL) {
      throw new ConfigError("Invalid configuration: DATABASE_URL must be set in production");
    }
  }
  return env;
}
