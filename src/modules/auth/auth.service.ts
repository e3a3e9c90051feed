import { createHash, randomBytes } from "node:crypto";
import { HttpError, NotFoundError, UnauthorizedError } from "../../http/errors.js";
import type { AuthenticationResponseJSON } from "../../shared/webauthn.js";
import type { StaffUser } from "./auth.schemas.js";
import type { LoginAttemptsRepository } from "./login-attempts.repository.js";
import type { StaffSessionsRepository } from "./sessions.repository.js";
import { type TwoStepService, WRONG_CODE_MESSAGE, WRONG_PASSKEY_MESSAGE } from "./two-step.service.js";
import type { UsersService } from "./users.service.js";

export const INVALID_LOGIN_MESSAGE = "Invalid email or password";
export const TOO_MANY_LOGINS_MESSAGE = "Too many failed attempts. Please wait a few minutes and try again.";

export interface LoginLimits {
  /** Guesses for one e-mail from one client address per window; past it, that pair alone is locked. */
  perEmailAndAddress: number;
  /** Guesses from one client address, any e-mail. An office behind one address has several people. */
  perAddress: number;
  /** Guesses for one e-mail from all addresses; past it, addresses it never signed in from must wait. */
  perEmail: number;
  windowMs: number;
  /** The wait after the first guess past `perEmail`; it doubles with each attempt counted, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long an address the user signed in from stays theirs (exempt from the e-mail-wide wait). */
  knownAddressDays: number;
}
export const LOGIN_LIMITS: LoginLimits = {
  perEmailAndAddress: 10,
  perAddress: 50,
  perEmail: 100,
  windowMs: 15 * 60 * 1000,
  firstDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  knownAddressDays: 90,
};
export const STAFF_SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;

/** A refused login: 429, with how long to wait (Retry-After). */
export class TooManyLoginsError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, TOO_MANY_LOGINS_MESSAGE);
  }
}

/** The login state of one e-mail, for `haven users list`. */
export interface LoginLock {
  /** Addresses locked out for this e-mail, and when the last of those locks ends. */
  lockedAddresses: string[];
  lockedUntil: string | null;
  /** Past the e-mail-wide ceiling: addresses it never signed in from wait until then between guesses. */
  throttledUntil: string | null;
}

const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const normalEmail = (email: string) => email.trim().toLowerCase();

/** What AuthService uses; src/container.ts builds them. */
export interface AuthDeps {
  users: UsersService;
  sessions: StaffSessionsRepository;
  attempts: LoginAttemptsRepository;
  /** The shipped LOGIN_LIMITS unless a test sets its own. */
  limits?: LoginLimits;
  /** The second step after the password, an app's code or a passkey (docs/decisions.md#38); none, password alone. */
  twoStep?: Pick<TwoStepService, "check" | "secondStepAsk">;
}

/** Staff sign-in: rate-limited logins and revocable sessions (docs/decisions.md#6). */
export class AuthService {
  private readonly users: UsersService;
  private readonly sessions: StaffSessionsRepository;
  private readonly attempts: LoginAttemptsRepository;
  private readonly limits: LoginLimits;
  private readonly twoStep: AuthDeps["twoStep"];

  constructor(deps: AuthDeps) {
    this.users = deps.users;
    this.sessions = deps.sessions;
    this.attempts = deps.attempts;
    this.limits = deps.limits ?? LOGIN_LIMITS;
    this.twoStep = deps.twoStep;
  }

  /**
   * Counts the attempt (per e-mail and address, per address, per e-mail) BEFORE checking the password, so
   * parallel guesses cannot slip past a limit; both login routes share these counters.
   * - Past `perEmailAndAddress`, that e-mail is locked for that address only, until the window ends:
   *   guesses from elsewhere cannot lock the owner out.
   * - Past `perEmail`, guesses from addresses the user never signed in from take turns, each waiting
   *   twice as long as the last (up to `maxDelayMs`); the owner's own addresses are not slowed.
   * A success clears its pair's counter and takes this attempt back from the others. With an authenticator app,
   * the right password alone is a 401 asking for the code (counted like any attempt); a wrong code is a 401 too.
   * A passkey answers the same ask, with the options that 401 carried.
   */
  async login(
    email: string,
    password: string,
    clientAddress: string,
    code?: string,
    passkey?: AuthenticationResponseJSON,
  ): Promise<{ user: StaffUser; sessionToken: string }> {
    const address = clientAddress;
    const normal = normalEmail(email);
    const keys = { pair: `pair:${normal}|${address}`, address: `ip:${address}`, email: `email:${normal}` };
    const { windowMs } = this.limits;
    const [byPair, byAddress, byEmail] = await Promise.all([
      this.attempts.count(keys.pair, windowMs, { email: normal, address }),
      this.attempts.count(keys.address, windowMs, { address }),
      this.attempts.count(keys.email, windowMs, { email: normal }),
    ]);
    if (byPair.attempts > this.limits.perEmailAndAddress) throw new TooManyLoginsError(seconds(byPair.windowEndsInMs));
    if (byAddress.attempts > this.limits.perAddress) throw new TooManyLoginsError(seconds(byAddress.windowEndsInMs));
    const beyond = byEmail.attempts - this.limits.perEmail;
    if (beyond > 0 && !(await this.attempts.isKnownAddress(normal, address, this.limits.knownAddressDays))) {
      const delayMs = Math.min(this.limits.firstDelayMs * 2 ** Math.min(beyond - 1, 30), this.limits.maxDelayMs);
      const waitMs = await this.attempts.takeTurn(keys.email, delayMs);
      if (waitMs !== null) throw new TooManyLoginsError(seconds(waitMs));
    }
    const user = await this.users.verify(email, password);
    if (!user) throw new UnauthorizedError(INVALID_LOGIN_MESSAGE);
    const second = this.twoStep ? await this.twoStep.check(user.id, code, passkey) : "off";
    if (second === "missing" && this.twoStep) throw await this.twoStep.secondStepAsk(user.id);
    if (second === "wrong") throw new UnauthorizedError(passkey ? WRONG_PASSKEY_MESSAGE : WRONG_CODE_MESSAGE);
    await Promise.all([
      this.attempts.reset(keys.pair),
      this.attempts.forgive(keys.address),
      this.attempts.forgive(keys.email),
      this.attempts.rememberAddress(user.id, address),
    ]);
    const sessionToken = randomBytes(32).toString("base64url");
    await this.sessions.insert(sha256(sessionToken), user.id, new Date(Date.now() + STAFF_SESSION_TTL_SECONDS * 1000));
    return { user, sessionToken };
  }

  /** The login state of each of these e-mails that has a lock or a wait in force (keyed by lower-case e-mail). */
  async loginLocks(emails: string[]): Promise<Map<string, LoginLock>> {
    const rows = await this.attempts.openCountersOf(emails.map(normalEmail), this.limits.windowMs);
    const locks = new Map<string, LoginLock>();
    const lockOf = (email: string) => {
      const lock = locks.get(email) ?? { lockedAddresses: [], lockedUntil: null, throttledUntil: null };
      locks.set(email, lock);
      return lock;
    };
    const now = Date.now();
    for (const row of rows) {
      if (row.address !== null && row.attempts > this.limits.perEmailAndAddress) {
        const lock = lockOf(row.email);
        lock.lockedAddresses.push(row.address);
        const until = row.windowEndsAt.toISOString();
        if (!lock.lockedUntil || until > lock.lockedUntil) lock.lockedUntil = until;
      } else if (row.address === null && row.attempts > this.limits.perEmail) {
        // Past the ceiling, unknown addresses wait between guesses until the window ends.
        const until = Math.max(row.windowEndsAt.getTime(), row.blockedUntil?.getTime() ?? 0);
        if (until > now) lockOf(row.email).throttledUntil = new Date(until).toISOString();
      }
    }
    for (const lock of locks.values()) lock.lockedAddresses.sort();
    return locks;
  }

  /** `haven users unlock`: clears every login counter of the user's e-mail (its locks and its wait). */
  async unlock(email: string): Promise<{ user: StaffUser; cleared: number }> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new NotFoundError(`No staff user with e-mail ${email}`);
    return { user, cleared: await this.attempts.clearEmail(normalEmail(user.email)) };
  }

  /** The signed-in user of a session token, or null once it is revoked, expired or its user is gone or disabled. */
  async resolve(sessionToken: string): Promise<StaffUser | null> {
    return this.sessions.findLiveUser(sha256(sessionToken));
  }

  async logout(sessionToken: string): Promise<void> {
    await this.sessions.revoke(sha256(sessionToken));
  }
}
