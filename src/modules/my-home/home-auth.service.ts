// Homeowner sign-in (docs/decisions.md#28): an e-mailed link and 6-digit code, then a session cookie of its own;
// passkeys once signed in. Every secret (link token, code, session id, WebAuthn challenge) is stored as SHA-256.
import { randomInt, timingSafeEqual } from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Logger } from "pino";
import type { TransactionRunner } from "../../db/transaction.js";
import { HttpError, NotFoundError } from "../../http/errors.js";
import type { LoginAttemptCounter } from "../auth/index.js";
import type { MailService } from "../mail/index.js";
import { hashToken, newToken } from "../../shared/one-time-links.js";
import type { HomeAccess } from "./home-access.js";
import type { HomeAuthRepository } from "./home-auth.repository.js";
import { HomePasskeys, type PasskeySummary } from "./home-passkeys.js";
import { signInEmail } from "./home-mail.js";

export const HOME_LINK_TTL_MS = 15 * 60 * 1000;
export const HOME_SESSION_TTL_MS = 30 * 86_400_000;
/** A session is renewed (30 days again, and its cookie re-sent) at most this often while it is used. */
export const HOME_SESSION_RENEW_MS = 60 * 60 * 1000;
export const HOME_CODE_TRIES = 5;

/**
 * Limits that stop guessing and flooding without letting a stranger lock a homeowner out (nothing counts per
 * e-mail alone toward a 429): a client address, and an (e-mail, address) pair, get a 429 past theirs; the
 * e-mails sent to one address are capped, and past the cap a request sends nothing new while the e-mail's newest
 * link still lives (the homeowner uses that one), the answer staying the same.
 */
export interface HomeSignInLimits {
  /** Sign-in requests (and code tries) from one client address per window, any e-mail. */
  perAddress: number;
  /** Sign-in requests for one e-mail from one client address per window. */
  perEmailAndAddress: number;
  windowMs: number;
  /** Sign-in e-mails sent to one e-mail per `mailWindowMs`, from any address; past it, only when no link is live. */
  mailsPerEmail: number;
  mailWindowMs: number;
}
// The window is auth's (15 minutes), so privacy's daily purge of login_attempts ends these counters too; the
// mail counter's hour is privacy's to keep (HOME_MAIL_KEY_PREFIX).
export const HOME_SIGN_IN_LIMITS: HomeSignInLimits = {
  perAddress: 30,
  perEmailAndAddress: 5,
  windowMs: 15 * 60 * 1000,
  mailsPerEmail: 5,
  mailWindowMs: 60 * 60 * 1000,
};
export const HOME_MAIL_KEY_PREFIX = "home-mail:";

export const TOO_MANY_SIGN_INS_MESSAGE = "Too many sign-in requests. Please wait a few minutes and try again.";
export class TooManySignInsError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, TOO_MANY_SIGN_INS_MESSAGE);
  }
}

export type SignInMethod = "link" | "code" | "passkey" | "support";

export interface HomeSettings {
  publicUrl: string;
  /** Secure cookies (production). */
  secure: boolean;
  supportEmail: string;
  clock?: () => Date;
  limits?: HomeSignInLimits;
}

export const normalEmail = (email: string) => email.trim().toLowerCase();
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What homeowner sign-in uses: auth's login counters (shared with staff login), mail, HomeAccess, and settings. */
export interface HomeAuthDeps {
  transaction: TransactionRunner;
  attempts: LoginAttemptCounter;
  access: HomeAccess;
  mail: Pick<MailService, "enqueue">;
  log: Logger;
  settings: HomeSettings;
}

export class HomeAuthService {
  private readonly clock: () => Date;
  private readonly limits: HomeSignInLimits;
  private readonly keys: HomePasskeys;

  constructor(
    private readonly repo: HomeAuthRepository,
    private readonly deps: HomeAuthDeps,
  ) {
    this.clock = deps.settings.clock ?? (() => new Date());
    this.limits = deps.settings.limits ?? HOME_SIGN_IN_LIMITS;
    this.keys = new HomePasskeys({ repo, publicUrl: deps.settings.publicUrl, clock: this.clock, sessions: this });
  }

  get publicUrl(): string {
    return this.deps.settings.publicUrl;
  }

  /** Counts a request per address and per (e-mail, address) before anything else; past either, 429 (known or not). */
  private async countRequest(email: string, address: string): Promise<void> {
    const { windowMs } = this.limits;
    // Keys only (no owner columns): staff lock listings never show homeowners; privacy's erase matches the exact keys.
    const [byPair, byAddress] = await Promise.all([
      this.deps.attempts.count(`home-pair:${email}|${address}`, windowMs),
      this.deps.attempts.count(`home-ip:${address}`, windowMs),
    ]);
    if (byPair.attempts > this.limits.perEmailAndAddress) throw new TooManySignInsError(seconds(byPair.windowEndsInMs));
    if (byAddress.attempts > this.limits.perAddress) throw new TooManySignInsError(seconds(byAddress.windowEndsInMs));
  }

  /** Whether this request may make and send a new e-mail: under the hourly cap, or else only when no e-mailed link lives. */
  private async mayMail(email: string, now: Date): Promise<boolean> {
    const sent = await this.deps.attempts.count(`${HOME_MAIL_KEY_PREFIX}${email}`, this.limits.mailWindowMs);
    if (sent.attempts <= this.limits.mailsPerEmail) return true;
    return !(await this.repo.hasLiveEmailedToken(email, now));
  }

  /**
   * Asks for a sign-in e-mail. The caller always answers the same, whether or not the e-mail is known; the
   * work is the same too (a token and code are made and stored either way), only the queued mail differs.
   * Past the e-mail's cap, while its newest link lives, nothing new is made: that link and its code stay good.
   */
  async requestSignIn(rawEmail: string, address: string): Promise<void> {
    const email = normalEmail(rawEmail);
    await this.countRequest(email, address);
    const now = this.clock();
    if (!(await this.mayMail(email, now))) return;
    const known = await this.deps.access.isKnown(email);
    // Read before the transaction: a read on another connection inside it holds one pool connection while it waits
    // for a second, and 10 requests at once held all ten (docs/decisions.md#46).
    const locale = known ? await this.deps.access.localeOf(email) : undefined;
    const token = newToken();
    const code = newCode();
    const expiresAt = new Date(now.getTime() + HOME_LINK_TTL_MS);
    await this.deps.transaction(async (tx) => {
      await this.repo.insertToken(tx, {
        email,
        tokenHash: hashToken(token),
        codeHash: hashToken(code),
        source: "email",
        expiresAt,
      });
      if (known)
        await this.deps.mail.enqueue(
          tx,
          signInEmail({
            to: email,
            url: this.linkUrl(token),
            code,
            publicUrl: this.publicUrl,
            supportEmail: this.deps.settings.supportEmail,
            locale,
          }),
        );
    });
  }

  linkUrl(token: string): string {
    return `${this.publicUrl}/my-home/sign-in/${token}`;
  }

  /** Whether a link is still good (the page it opens shows a button; opening it spends nothing). */
  isLiveLink(token: string): Promise<boolean> {
    return this.repo.isLiveToken(hashToken(token), this.clock());
  }

  /** Spends a link once: a new session of its e-mail, or null when the link is unknown, used or expired. */
  async spendLink(
    token: string,
    method: SignInMethod = "link",
  ): Promise<{ email: string; token: string; sessionId: number } | null> {
    const email = await this.repo.spendToken(hashToken(token), this.clock());
    if (!email) return null;
    return { email, ...(await this.createSession(email, { method })) };
  }

  /**
   * Checks a typed code against the e-mail's newest live code: each try is counted first (at most 5 per code),
   * and tries also count against the address's limit. Null when wrong, used up or expired.
   */
  async spendCode(
    rawEmail: string,
    code: string,
    address = "unknown",
  ): Promise<{ email: string; token: string; sessionId: number } | null> {
    const email = normalEmail(rawEmail);
    const byAddress = await this.deps.attempts.count(`home-ip:${address}`, this.limits.windowMs);
    if (byAddress.attempts > this.limits.perAddress) throw new TooManySignInsError(seconds(byAddress.windowEndsInMs));
    const now = this.clock();
    const taken = await this.repo.takeCodeTry(email, now, HOME_CODE_TRIES);
    if (!taken || !sameHash(taken.codeHash, hashToken(code))) return null;
    if (!(await this.repo.spendTokenById(taken.id, now))) return null;
    return { email, ...(await this.createSession(email, { method: "code" })) };
  }

  /** A new session: the cookie value (random; only its hash is stored) and its row id. */
  async createSession(
    rawEmail: string,
    meta: { method?: SignInMethod } = {},
  ): Promise<{ token: string; sessionId: number }> {
    const token = newToken();
    const now = this.clock();
    const sessionId = await this.repo.insertSession(
      normalEmail(rawEmail),
      hashToken(token),
      meta.method ?? "link",
      now,
      new Date(now.getTime() + HOME_SESSION_TTL_MS),
    );
    return { token, sessionId };
  }

  /** The viewer of a live session, and whether it was just renewed (the cookie is then sent again). */
  async resolveSession(token: string): Promise<{ email: string; sessionId: number; renewed: boolean } | null> {
    const now = this.clock();
    const row = await this.repo.findLiveSession(hashToken(token), now);
    if (!row) return null;
    const renew = now.getTime() - row.lastSeenAt.getTime() >= HOME_SESSION_RENEW_MS;
    if (renew) await this.repo.renewSession(row.id, now, new Date(now.getTime() + HOME_SESSION_TTL_MS));
    return { email: row.email, sessionId: row.id, renewed: renew };
  }

  revokeSession(sessionId: number): Promise<void> {
    return this.repo.revokeSession(sessionId, this.clock());
  }

  /** 'Sign out everywhere': every session of the e-mail ends, with its unused links and codes and its calendar feed's URL. */
  revokeAll(rawEmail: string): Promise<number> {
    return this.repo.revokeAll(normalEmail(rawEmail), this.clock());
  }

  /** A support link (CLI, staff): valid 15 minutes, once, no code. Only for a known customer. */
  async signInLink(rawEmail: string): Promise<{ email: string; url: string; expiresAt: Date }> {
    const email = normalEmail(rawEmail);
    if (!(await this.deps.access.isKnown(email))) throw new NotFoundError(`No customer with e-mail ${email}`);
    const token = newToken();
    const expiresAt = new Date(this.clock().getTime() + HOME_LINK_TTL_MS);
    await this.repo.insertToken(undefined, {
      email,
      tokenHash: hashToken(token),
      codeHash: null,
      source: "support",
      expiresAt,
    });
    this.deps.log.info({ event: "home.sign_in_link", email }, "support sign-in link made");
    return { email, url: this.linkUrl(token), expiresAt };
  }

  /** Staff 'Send sign-in link': e-mails the property's customer a link and code (the staff member never sees them). */
  async sendSignInLink(propertyId: number): Promise<{ email: string }> {
    const customerEmail = await this.repo.customerEmailOfProperty(propertyId);
    if (!customerEmail) throw new NotFoundError("Property not found");
    const email = normalEmail(customerEmail);
    const token = newToken();
    const code = newCode();
    const expiresAt = new Date(this.clock().getTime() + HOME_LINK_TTL_MS);
    const locale = await this.deps.access.localeOf(email);
    await this.deps.transaction(async (tx) => {
      await this.repo.insertToken(tx, {
        email,
        tokenHash: hashToken(token),
        codeHash: hashToken(code),
        source: "support",
        expiresAt,
      });
      await this.deps.mail.enqueue(
        tx,
        signInEmail({
          to: email,
          url: this.linkUrl(token),
          code,
          publicUrl: this.publicUrl,
          supportEmail: this.deps.settings.supportEmail,
          locale,
        }),
      );
    });
    this.deps.log.info({ event: "home.sign_in_link_sent", propertyId }, "sign-in link e-mailed by staff");
    return { email };
  }

  async lastSignedIn(rawEmail: string): Promise<Date | null> {
    const email = normalEmail(rawEmail);
    return (await this.repo.lastSignedIn([email])).get(email) ?? null;
  }

  // ---------- passkeys (home-passkeys.ts) ----------

  passkeys(rawEmail: string): Promise<PasskeySummary[]> {
    return this.keys.list(normalEmail(rawEmail));
  }

  registrationOptions(rawEmail: string) {
    return this.keys.registrationOptions(normalEmail(rawEmail));
  }

  registerPasskey(rawEmail: string, response: RegistrationResponseJSON, name: string): Promise<PasskeySummary> {
    return this.keys.register(normalEmail(rawEmail), response, name);
  }

  deletePasskey(rawEmail: string, id: number): Promise<void> {
    return this.keys.remove(normalEmail(rawEmail), id);
  }

  /** Options for signing in with a discoverable passkey (no e-mail asked). */
  signInOptions() {
    return this.keys.signInOptions();
  }

  /** Verifies a passkey assertion and opens a session of the passkey's e-mail; null when it does not verify. */
  signInWithPasskey(
    response: AuthenticationResponseJSON,
  ): Promise<{ email: string; token: string; sessionId: number } | null> {
    return this.keys.signIn(response);
  }
}
