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
  // Retired secrets, comma-separated: cookies they sealed still open, new ones are sealed with SESSION_SECRET.
  SESSION_SECRETS_PREVIOUS: z.preprocess(
    (v) =>
      typeof v === "string"
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    z.array(z.string().min(32, "each previous session secret must be at least 32 characters")),
  ),
  BUSINESS_TZ: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .refine(isTimeZone, {
        error: (issue) =>
          `"${String(issue.input)}" is not a time zone this runtime knows; use an IANA name such as America/Toronto`,
      })
      .default("America/Toronto"),
  ),
  CONTACT_PHONE: z.string().default("(613) 555-0142"),
  CONTACT_EMAIL: z.string().email().default("hello@havenhomehealth.ca"),
  SUPPORT_EMAIL: z.string().email().default("support@havenhomehealth.ca"),
  MAIL_FROM: z.string().default("Haven <no-reply@havenhomehealth.ca>"),
  SMTP_URL: optional(z.string()),
  STRIPE_SECRET_KEY: optional(z.string()),
  STRIPE_PUBLISHABLE_KEY: optional(z.string()),
  STRIPE_WEBHOOK_SECRET: optional(z.string()),
  STRIPE_API_BASE: optional(z.string().url()),
  // Resolved in resolveModes: unset means "stripe when a key is set, else demo" (smtp/outbox likewise).
  PAYMENTS_MODE: optional(z.enum(["stripe", "demo"])),
  MAIL_MODE: optional(z.enum(["smtp", "outbox"])),
  // Express's 'trust proxy': off unless Haven sits behind a proxy that sets X-Forwarded-For (see README).
  TRUST_PROXY: z.preprocess(blankToUndefined, z.string().trim().default("false").transform(trustProxySetting)),
  // inline: the web process runs the job worker too (npm start, one box); separate: src/worker.ts runs it; off: none.
  WORKER_MODE: z.preprocess(blankToUndefined, z.enum(["inline", "separate", "off"]).default("inline")),
  WORKER_CONCURRENCY: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(100).default(2)),
  // A worker-only process (src/worker.ts) answers /livez, /readyz and /metrics on this port; unset, it listens nowhere.
  WORKER_PORT: optional(z.coerce.number().int().min(1).max(65535)),
  DB_POOL_MAX: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1000).default(10)),
  // Postgres statement_timeout for the app's queries, in milliseconds; 0 = no limit.
  STATEMENT_TIMEOUT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).default(0)),
  // On SIGTERM: /readyz says 503 at once, requests and jobs in flight get this long to finish.
  SHUTDOWN_GRACE_S: z.preprocess(blankToUndefined, z.coerce.number().min(0).max(3600).default(25)),
  // When set, GET /metrics needs "Authorization: Bearer <token>"; unset, it answers loopback addresses only.
  METRICS_TOKEN: optional(z.string().min(16, "METRICS_TOKEN must be at least 16 characters")),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DEMO_STAFF_EMAIL: z.string().email().default("demo@havenhomehealth.ca"),
  DEMO_STAFF_PASSWORD: z.string().default("haven-demo-2024"),
});

export type PaymentsMode = "stripe" | "demo";
export type MailMode = "smtp" | "outbox";
/** The parsed variables, with PAYMENTS_MODE and MAIL_MODE always decided, and PUBLIC_URL always set (http://localhost:$PORT outside production). */
export type Env = Omit<z.infer<typeof schema>, "PAYMENTS_MODE" | "MAIL_MODE" | "PUBLIC_URL"> & {
  PAYMENTS_MODE: PaymentsMode;
  MAIL_MODE: MailMode;
  PUBLIC_URL: string;
};

export class ConfigError extends Error {}

/**
 * Decides the payment and mail modes. A mode that takes no real payments or sends no real mail is
 * either what development falls back to, or said on purpose (PAYMENTS_MODE=demo, MAIL_MODE=outbox):
 * production never slips into it because a key is missing.
 */
function resolveModes(parsed: z.infer<typeof schema> & { PUBLIC_URL: string }): Env {
  const production = parsed.NODE_ENV === "production";
  const PAYMENTS_MODE = parsed.PAYMENTS_MODE ?? (parsed.STRIPE_SECRET_KEY ? "stripe" : "demo");
  if (!parsed.STRIPE_SECRET_KEY && (parsed.PAYMENTS_MODE === "stripe" || (production && !parsed.PAYMENTS_MODE))) {
    throw new ConfigError(
      "Invalid configuration: STRIPE_SECRET_KEY is not set; set it, or PAYMENTS_MODE=demo to take no real payments",
    );
  }
  // Stripe mode's payment page mounts the Payment Element, which needs the publishable key.
  if (PAYMENTS_MODE === "stripe" && !parsed.STRIPE_PUBLISHABLE_KEY) {
    throw new ConfigError(
      "Invalid configuration: STRIPE_PUBLISHABLE_KEY must be set when STRIPE_SECRET_KEY is (the /checkout page needs it for Stripe's Payment Element); set it, or PAYMENTS_MODE=demo",
    );
  }
  if (production && PAYMENTS_MODE === "stripe" && !parsed.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      "Invalid configuration: STRIPE_WEBHOOK_SECRET must be set in production when Stripe is on (it verifies /api/stripe/webhook); set it, or PAYMENTS_MODE=demo",
    );
  }
  const MAIL_MODE = parsed.MAIL_MODE ?? (parsed.SMTP_URL ? "smtp" : "outbox");
  if (!parsed.SMTP_URL && (parsed.MAIL_MODE === "smtp" || (production && !parsed.MAIL_MODE))) {
    throw new ConfigError(
      "Invalid configuration: SMTP_URL is not set; set it, or MAIL_MODE=outbox to write e-mail to files instead of sending it",
    );
  }
  return { ...parsed, PAYMENTS_MODE, MAIL_MODE };
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join("; ")}`);
  }
  const env = parsed.data;
  if (env.NODE_ENV === "production") {
    if (env.SESSION_SECRET === DEV_SESSION_SECRET) {
      throw new ConfigError("Invalid configuration: SESSION_SECRET must be set in production");
    }
    if (!env.DATABASE_URL) {
      throw new ConfigError("Invalid configuration: DATABASE_URL must be set in production");
    }
  }
  const resolved = resolveModes({
    ...env,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
  });
  // E-mailed links and the CSRF origin come from it, never from a request's Host header.
  if (env.NODE_ENV === "production" && !env.PUBLIC_URL) {
    throw new ConfigError(
      "Invalid configuration: PUBLIC_URL must be set in production (the address people reach Haven at, e.g. https://haven.example.com)",
    );
  }
  return resolved;
}
