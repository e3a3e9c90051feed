import type { Tx } from "../../db/transaction.js";
import type { TransactionRunner } from "../../db/transaction.js";
import { ConflictError, ForbiddenError, HttpError, NotFoundError } from "../../http/errors.js";
import { parse } from "../../http/validate.js";
import { GONE_MESSAGE, hashToken, isToken, newToken } from "../../shared/one-time-links.js";
import type { AuditLog } from "../audit/index.js";
import type { PasswordHashing } from "./passwords.js";
import type { StaffUser } from "./auth.schemas.js";
import type { LoginAttemptCounter } from "./login-attempts.repository.js";
import type { LinkPurpose, StaffAccountsRepository } from "./staff-accounts.repository.js";
import {
  type AccountChange,
  type StaffAccount,
  accountChangeSchema,
  inviteSchema,
  setPasswordSchema,
} from "./staff-accounts.schemas.js";
import type { StaffMail } from "./staff-mail.js";
import { staffLinkEmail } from "./staff-mail.js";

/** How long an invitation or a reset link works (docs/decisions.md#38). */
export const STAFF_LINK_HOURS = 48;
export const LAST_OWNER_MESSAGE = "The last owner cannot be demoted or deactivated";
export const TOO_MANY_RESETS_MESSAGE = "Too many reset links for this account. Please wait a few minutes.";

/** Reset links sent, counted like logins (login_attempts, fixed windows): per account and per client address. */
export interface ResetLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}
export const RESET_LIMITS: ResetLimits = { perEmail: 5, perAddress: 50, windowMs: 15 * 60 * 1000 };

export class TooManyResetsError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, TOO_MANY_RESETS_MESSAGE);
  }
}

/** What StaffAccountsService uses; src/container.ts builds them. */
export interface StaffAccountsDeps {
  repo: StaffAccountsRepository;
  transaction: TransactionRunner;
  /** MailService.enqueue: the e-mail is queued in the change's transaction. */
  mail: { enqueue(tx: Tx, message: StaffMail): Promise<void> };
  attempts: LoginAttemptCounter;
  settings: { publicUrl: string; clock?: () => Date; resetLimits?: ResetLimits };
  /** The audit trail: invitations, role changes, deactivations and links sent (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
  passwords: Pick<PasswordHashing, "hash">;
  /** A port the container fills: a deactivated inspector's future bookings go to others (docs/decisions.md#37). */
  onDeactivated?: (tx: Tx, userId: number, now: Date) => Promise<unknown>;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Owners manage staff accounts (docs/decisions.md#38): invite by e-mail, change a role, deactivate (sessions
 * end at once), send a reset link. Every call names the acting user and refuses anyone but an owner.
 */
export class StaffAccountsService {
  private readonly clock: () => Date;
  private readonly limits: ResetLimits;

  constructor(private readonly deps: StaffAccountsDeps) {
    this.clock = deps.settings.clock ?? (() => new Date());
    this.limits = deps.settings.resetLimits ?? RESET_LIMITS;
  }

  private ownerOnly(actor: StaffUser): void {
    if (actor.role !== "owner") throw new ForbiddenError("Only an owner may manage staff accounts");
  }

  async list(actor: StaffUser): Promise<StaffAccount[]> {
    this.ownerOnly(actor);
    return this.deps.repo.list();
  }

  private async get(id: number): Promise<StaffAccount> {
    const account = await this.deps.repo.find(id);
    if (!account) throw new NotFoundError("No such staff account");
    return account;
  }

  /** A new account without a password, and the e-mail with its 48-hour link, in one transaction. */
  async invite(actor: StaffUser, input: unknown): Promise<StaffAccount> {
    this.ownerOnly(actor);
    const invite = parse(inviteSchema, input);
    return this.deps.transaction(async (tx) => {
      if (await this.deps.repo.existsByEmail(invite.email, tx))
        throw new ConflictError(`A staff user with e-mail ${invite.email} already exists`);
      const account = await this.deps.repo.insertInvited(invite, tx);
      await this.sendLink(actor, account, "invite", tx);
      await this.deps.audit.record(tx, {
        actor: `staff:${actor.id}`,
        action: "staff_user.invite",
        recordType: "staff_user",
        recordId: account.id,
        after: account,
      });
      return account;
    });
  }

  /**
   * A new role and/or deactivation or reactivation. The active owners' rows are locked first, so two owners
   * demoting each other at once cannot leave none: the last active owner is a 409.
   */
  async change(actor: StaffUser, id: number, input: unknown): Promise<StaffAccount> {
    this.ownerOnly(actor);
    const change: AccountChange = parse(accountChangeSchema, input);
    const now = this.clock();
    return this.deps.transaction(async (tx) => {
      const owners = await this.deps.repo.lockOwnersAnd(id, tx);
      const account = await this.deps.repo.find(id, tx);
      if (!account) throw new NotFoundError("No such staff account");
      const losesOwner = owners.includes(id) && ((change.role && change.role !== "owner") || change.active === false);
      if (losesOwner && owners.length <= 1) throw new ConflictError(LAST_OWNER_MESSAGE);
      if (change.role && change.role !== account.role) await this.deps.repo.setRole(id, change.role, tx);
      if (change.active === false && account.status !== "deactivated") {
        await this.deps.repo.deactivate(id, now, tx);
        await this.deps.onDeactivated?.(tx, id, now);
      }
      if (change.active === true && account.status === "deactivated") await this.deps.repo.reactivate(id, tx);
      const after = (await this.deps.repo.find(id, tx))!;
      // Nothing changed (the same role asked again) records nothing.
      await this.deps.audit.record(tx, {
        actor: `staff:${actor.id}`,
        action: "staff_user.change",
        recordType: "staff_user",
        recordId: id,
        before: account,
        after,
      });
      return after;
    });
  }

  /**
   * Sends a password-reset link (an invitation again while the account has no password). Counted like logins
   * before anything is made: past the account's or the address's limit, 429 with Retry-After.
   */
  async sendReset(actor: StaffUser, id: number, clientAddress: string): Promise<StaffAccount> {
    this.ownerOnly(actor);
    const account = await this.get(id);
    if (account.status === "deactivated") throw new ConflictError("Reactivate the account before sending it a link");
    const { windowMs } = this.limits;
    const [byEmail, byAddress] = await Promise.all([
      this.deps.attempts.count(`staff-reset:${account.email.toLowerCase()}`, windowMs),
      this.deps.attempts.count(`staff-reset-ip:${clientAddress}`, windowMs),
    ]);
    if (byEmail.attempts > this.limits.perEmail) throw new TooManyResetsError(seconds(byEmail.windowEndsInMs));
    if (byAddress.attempts > this.limits.perAddress) throw new TooManyResetsError(seconds(byAddress.windowEndsInMs));
    const purpose = account.status === "invited" ? "invite" : "reset";
    await this.deps.transaction(async (tx) => {
      await this.sendLink(actor, account, purpose, tx);
      await this.deps.audit.record(tx, {
        actor: `staff:${actor.id}`,
        action: `staff_user.${purpose}_link`,
        recordType: "staff_user",
        recordId: account.id,
        after: { linkSent: purpose },
      });
    });
    return account;
  }

  private async sendLink(actor: StaffUser, account: StaffAccount, purpose: LinkPurpose, tx: Tx): Promise<void> {
    const now = this.clock();
    const token = newToken();
    await this.deps.repo.spendOpenLinks(account.id, now, tx);
    await this.deps.repo.insertLink(
      {
        staffUserId: account.id,
        purpose,
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + STAFF_LINK_HOURS * 3_600_000),
        createdBy: actor.id,
      },
      tx,
    );
    await this.deps.mail.enqueue(
      tx,
      staffLinkEmail({
        purpose,
        to: account.email,
        firstName: account.firstName,
        url: `${this.deps.settings.publicUrl}/staff/set-password?token=${token}`,
        hours: STAFF_LINK_HOURS,
        sentBy: `${actor.firstName} ${actor.lastName}`.trim(),
      }),
    );
  }

  /** The link's purpose and e-mail while it works; null when unknown, used, expired or its account deactivated. */
  async openLink(token: unknown): Promise<{ purpose: LinkPurpose; email: string } | null> {
    if (!isToken(token)) return null;
    const link = await this.deps.repo.findLink(hashToken(token));
    if (!link || link.usedAt || link.disabled || link.expiresAt <= this.clock()) return null;
    return { purpose: link.purpose, email: link.email };
  }

  /**
   * Spends the link and sets the password, under the link's row lock (a second use finds it spent). Every
   * session of the account ends; the person then signs in with the new password. A dead link is a 410.
   */
  async setPassword(input: unknown): Promise<{ email: string }> {
    const form = parse(setPasswordSchema, input);
    const passwordHash = await this.deps.passwords.hash(form.password);
    const now = this.clock();
    return this.deps.transaction(async (tx) => {
      const link = await this.deps.repo.findLink(hashToken(form.token), tx, true);
      if (!link || link.usedAt || link.disabled || link.expiresAt <= now) throw new HttpError(410, GONE_MESSAGE);
      await this.deps.repo.useLink(link.id, now, tx);
      await this.deps.repo.setPassword(link.staffUserId, passwordHash, now, tx);
      // The person's own change through the owner's link: which link, never the password (docs/decisions.md#39).
      await this.deps.audit.record(tx, {
        actor: `staff:${link.staffUserId}`,
        action: "staff_user.set_password",
        recordType: "staff_user",
        recordId: link.staffUserId,
        after: { through: `${link.purpose} link` },
      });
      return { email: link.email };
    });
  }
}
