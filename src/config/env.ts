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

/** The provinces and territories the tax module has rates for (src/modules/tax: config sits below the modules). */
const TAX_PROVINCES = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"] as const;

/** A GST/HST registration: the 9-digit business number, then the RT program account (CRA's RC2 format). */
const GST_HST_NUMBER = /^\d{9}RT\d{4}$/;
/** A QST registration: Revenu Québec's 10-digit identification number, then the TQ file (docs/tax.md). */
const QST_NUMBER = /^\d{10}TQ\d{4}$/;

const booleanSetting = (name: string) =>
  z.enum(["true", "false"], { error: `${name} must be true or false` }).transform((v) => v === "true");

/** Development and test bill as this sample business; production must name its own (see loadEnv). */
export const DEMO_BUSINESS = {
  legalName: "Haven Home Health Inc.",
  address: "200 Elgin Street, Suite 400, Ottawa ON K2P 1L5",
  gstHstNumber: "123456789 RT0001",
  qstNumber: "1234567890 TQ0001",
} as const;

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
  // Where a reply to any e-mail goes (Reply-To): the office. Unset, SUPPORT_EMAIL, the address the e-mails name.
  REPLY_TO: optional(z.string().email()),
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
  // Limits of each connection of the app's pool, in milliseconds, 0 = none (docs/decisions.md#46): one slow statement,
  // lock wait or abandoned transaction cannot hold a connection for long. Migrations run without them.
  STATEMENT_TIMEOUT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).default(30_000)),
  LOCK_TIMEOUT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).default(5_000)),
  // Above a payment provider's call with its retry (40 s), which a transaction may wait for.
  IDLE_IN_TRANSACTION_TIMEOUT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).default(60_000)),
  // On SIGTERM: /readyz says 503 at once, requests and jobs in flight get this long to finish.
  SHUTDOWN_GRACE_S: z.preprocess(blankToUndefined, z.coerce.number().min(0).max(3600).default(25)),
  // When set, GET /metrics needs "Authorization: Bearer <token>"; unset, it answers loopback addresses only.
  METRICS_TOKEN: optional(z.string().min(16, "METRICS_TOKEN must be at least 16 characters")),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // The business on invoices and receipts (docs/decisions.md#32, docs/tax.md). Outside production they default to
  // the demo identity below; production with Stripe refuses to bill without them unless BUSINESS_TAX_REGISTERED=false.
  BUSINESS_LEGAL_NAME: optional(z.string().trim().min(1).max(200)),
  BUSINESS_ADDRESS: optional(z.string().trim().min(1).max(300)),
  GST_HST_NUMBER: optional(
    z
      .string()
      .trim()
      .transform((v) => v.replace(/\s+/g, "").toUpperCase())
      .refine((v) => GST_HST_NUMBER.test(v), {
        error: "GST_HST_NUMBER must be a business number with its GST/HST account, like 123456789 RT0001",
      })
      .transform((v) => `${v.slice(0, 9)} ${v.slice(9)}`),
  ),
  // Printed on every invoice that charges QST; haven doctor fails when a Quebec home is billed without it
  // (docs/decisions.md#51).
  QST_NUMBER: optional(
    z
      .string()
      .trim()
      .transform((v) => v.replace(/\s+/g, "").toUpperCase())
      .refine((v) => QST_NUMBER.test(v), {
        error: "QST_NUMBER must be a Quebec identification number with its QST file, like 1234567890 TQ0001",
      })
      .transform((v) => `${v.slice(0, 10)} ${v.slice(10)}`),
  ),
  // The tax province when a purchase names no home (docs/tax.md).
  BUSINESS_PROVINCE: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toUpperCase() || undefined : v),
    z.enum(TAX_PROVINCES, { error: `BUSINESS_PROVINCE must be one of ${TAX_PROVINCES.join(", ")}` }).default("ON"),
  ),
  BUSINESS_TAX_REGISTERED: z.preprocess(blankToUndefined, booleanSetting("BUSINESS_TAX_REGISTERED").default(true)),
  // Stripe Tax computes the tax instead of Haven's Tax Rate objects (docs/tax.md).
  STRIPE_AUTOMATIC_TAX: z.preprocess(blankToUndefined, booleanSetting("STRIPE_AUTOMATIC_TAX").default(false)),
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
 * Who bills: printed on invoices and receipts, and the tax province of a purchase that names no home
 * (docs/decisions.md#32). Modules receive it through their Deps; container.ts builds it once.
 */
export interface BusinessSettings {
  legalName: string;
  address: string;
  /** Null only when the operator said the business is not registered (BUSINESS_TAX_REGISTERED=false). */
  gstHstNumber: string | null;
  /** Revenu Québec's QST number, on invoices that charge QST; null when unset (haven doctor checks it). */
  qstNumber: string | null;
  province: (typeof TAX_PROVINCES)[number];
  taxRegistered: boolean;
}

export function businessSettings(
  env: Pick<
    Env,
    | "NODE_ENV"
    | "BUSINESS_LEGAL_NAME"
    | "BUSINESS_ADDRESS"
    | "GST_HST_NUMBER"
    | "QST_NUMBER"
    | "BUSINESS_PROVINCE"
    | "BUSINESS_TAX_REGISTERED"
  >,
): BusinessSettings {
  // Production has passed loadEnv's check; elsewhere the demo identity fills what is unset.
  const demo = env.NODE_ENV !== "production";
  return {
    legalName: env.BUSINESS_LEGAL_NAME ?? (demo ? DEMO_BUSINESS.legalName : ""),
    address: env.BUSINESS_ADDRESS ?? (demo ? DEMO_BUSINESS.address : ""),
    gstHstNumber: env.BUSINESS_TAX_REGISTERED
      ? (env.GST_HST_NUMBER ?? (demo ? DEMO_BUSINESS.gstHstNumber : null))
      : (env.GST_HST_NUMBER ?? null),
    qstNumber: env.BUSINESS_TAX_REGISTERED
      ? (env.QST_NUMBER ?? (demo ? DEMO_BUSINESS.qstNumber : null))
      : (env.QST_NUMBER ?? null),
    province: env.BUSINESS_PROVINCE,
    taxRegistered: env.BUSINESS_TAX_REGISTERED,
  };
}

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
  if (production && PAYMENTS_MODE === "stripe" && parsed.BUSINESS_TAX_REGISTERED) {
    const missing = (["BUSINESS_LEGAL_NAME", "BUSINESS_ADDRESS", "GST_HST_NUMBER"] as const).filter(
      (name) => !parsed[name],
    );
    if (missing.length) {
      throw new ConfigError(
        `Invalid configuration: ${missing.join(", ")} must be set in production to bill with Stripe (invoices name the business and its GST/HST number, docs/tax.md); set them, or BUSINESS_TAX_REGISTERED=false if the business is not registered for GST/HST`,
      );
    }
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
