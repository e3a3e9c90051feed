import { createHash, randomBytes } from "node:crypto";
import { HttpError, UnauthorizedError } from "../../http/errors.js";
import type { StaffUser } from "./auth.schemas.js";
import type { LoginAttemptsRepository } from "./login-attempts.repository.js";
import type { StaffSessionsRepository } from "./sessions.repository.js";
import type { UsersService } from "./users.service.js";

export const INVALID_LOGIN_MESSAGE = "Invalid email or password";
export const TOO_MANY_LOGINS_MESSAGE = "Too many failed attempts. Please wait a few minutes and try again.";

export interface LoginLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}
/** An office behind one address has several people: the address gets more room than one e-mail. */
export const LOGIN_LIMITS: LoginLimits = { perEmail: 10, perAddress: 50, windowMs: 15 * 60 * 1000 };
export const STAFF_SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;

const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");

/** Staff sign-in: rate-limited logins and revocable sessions (DESIGN.md decision 6, issue 8). */
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: StaffSessionsRepository,
    private readonly attempts: LoginAttemptsRepository,
    private readonly limits: LoginLimits = LOGIN_LIMITS,
  ) {}

  /**
   * Counts the attempt against the e-mail and the client address BEFORE checking the password, so
   * parallel guesses cannot slip past the limit; both login routes share these counters. A success
   * clears the e-mail's counter and takes this attempt back from the address's.
   */
  async login(email: string, password: string, clientAddress: string): Promise<{ user: StaffUser; sessionToken: string }> {
    const emailKey = `email:${email.trim().toLowerCase()}`;
    const addressKey = `ip:${clientAddress}`;
    const [byEmail, byAddress] = await Promise.all([
      this.attempts.count(emailKey, this.limits.windowMs),
      this.attempts.count(addressKey, this.limits.windowMs),
    ]);
    if (byEmail > this.limits.perEmail || byAddress > this.limits.perAddress) throw new HttpError(429, TOO_MANY_LOGINS_MESSAGE);
    const user = await this.users.verify(email, password);
    if (!user) throw new UnauthorizedError(INVALID_LOGIN_MESSAGE);
    await Promise.all([this.attempts.reset(emailKey), this.attempts.forgive(addressKey)]);
    const sessionToken = randomBytes(32).toString("base64url");
    await this.sessions.insert(sha256(sessionToken), user.id, new Date(Date.now() + STAFF_SESSION_TTL_SECONDS * 1000));
    return { user, sessionToken };
  }

  /** The signed-in user of a session token, or null once it is revoked, expired or its user is gone or disabled. */
  async resolve(sessionToken: string): Promise<StaffUser | null> {
    return this.sessions.findLiveUser(sha256(sessionToken));
  }

  async logout(sessionToken: string): Promise<void> {
    await this.sessions.revoke(sha256(sessionToken));
  }
}
