import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, ForbiddenError, HttpError, ValidationError } from "../../http/errors.js";
import type { AuthenticationResponseJSON } from "../../shared/webauthn.js";
import type { AuditLog } from "../audit/index.js";
import type { StaffUser } from "./auth.schemas.js";
import type { StaffPasskeySummary, StaffPasskeys } from "./staff-passkeys.service.js";
import { matchTotp, newTotpSecret, otpauthUrl } from "./totp.js";
import type { TwoStepRepository } from "./two-step.repository.js";

export const CODE_REQUIRED_MESSAGE = "Enter the 6-digit code from your authenticator app";
export const WRONG_CODE_MESSAGE = "That code is not right. Enter the newest code from your authenticator app.";
export const PASSKEY_REQUIRED_MESSAGE = "Confirm with your passkey";
export const WRONG_PASSKEY_MESSAGE = "That passkey did not confirm it is you. Try again.";
export const SET_UP_FIRST_MESSAGE = "An owner requires two-step sign-in: add an authenticator app or a passkey first.";
export const OWN_SECOND_STEP_FIRST_MESSAGE =
  "Add your own authenticator app or passkey first (Two-step sign-in, /admin/account/two-step): requiring it for everyone would hold you at that page too.";

/**
 * A password that was right, for an account with a second step, sent without it: 401 with the ask, and the
 * options for the person's passkeys when they have any.
 */
export class TwoStepRequiredError extends HttpError {
  readonly twoStepRequired = true;
  constructor(
    /** Whether the person has an authenticator app (the login page then shows the code field). */
    readonly app = true,
    readonly passkeyOptions: PublicKeyCredentialRequestOptionsJSON | null = null,
  ) {
    super(401, app ? CODE_REQUIRED_MESSAGE : PASSKEY_REQUIRED_MESSAGE);
  }
}

export interface TwoStepDeps {
  repo: TwoStepRepository;
  /** Staff passkeys, the other second step (docs/decisions.md#38); none, an authenticator app only. */
  passkeys?: Pick<StaffPasskeys, "has" | "verify" | "signInOptions" | "list">;
  transaction: TransactionRunner;
  /** Turning the app on or off and the owner's requirement are audited (docs/decisions.md#39), no secret kept. */
  audit: Pick<AuditLog, "record">;
  clock?: () => Date;
}

/**
 * Two-step sign-in with an authenticator app (TOTP, docs/decisions.md#38): staff add or remove their own; an
 * owner may require one for everyone. Login asks for the code after the password (AuthService.login).
 */
export class TwoStepService {
  private readonly clock: () => Date;

  constructor(private readonly deps: TwoStepDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** The two-step page's state: the app (on, or a secret waiting for its first code), the person's passkeys. */
  async status(user: StaffUser): Promise<{
    enabled: boolean;
    required: boolean;
    pending: { secret: string; url: string } | null;
    passkeys: StaffPasskeySummary[];
  }> {
    const state = await this.deps.repo.stateOf(user.id);
    const pending =
      state?.secret && !state.enabled ? { secret: state.secret, url: otpauthUrl(state.secret, user.email) } : null;
    const passkeys = (await this.deps.passkeys?.list(user)) ?? [];
    return { enabled: Boolean(state?.enabled), required: Boolean(state?.required), pending, passkeys };
  }

  /** A new secret to type into the app; not in force until a code from it is confirmed. */
  async start(user: StaffUser): Promise<void> {
    const state = await this.deps.repo.stateOf(user.id);
    if (state?.enabled) throw new HttpError(409, "An authenticator app is already added");
    await this.deps.repo.setPending(user.id, newTotpSecret());
  }

  async confirm(user: StaffUser, code: unknown): Promise<void> {
    const state = await this.deps.repo.stateOf(user.id);
    if (!state?.secret || state.enabled) throw new HttpError(409, "Start adding an authenticator app first");
    const secret = state.secret;
    await this.deps.transaction(async (tx) => {
      const step = matchTotp(secret, String(code ?? ""), this.clock());
      if (step === null || !(await this.deps.repo.takeStep(user.id, step, tx)))
        throw new ValidationError(WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
      await this.deps.repo.enable(user.id, this.clock(), tx);
      await this.appEvent(tx, user, true);
    });
  }

  /** One event per app turned on or off: the fact only, never the secret or a code. */
  private appEvent(tx: Tx, user: StaffUser, on: boolean) {
    return this.deps.audit.record(tx, {
      actor: `staff:${user.id}`,
      action: on ? "staff_user.app_on" : "staff_user.app_off",
      recordType: "staff_user",
      recordId: user.id,
      before: { authenticatorApp: on ? "off" : "on" },
      after: { authenticatorApp: on ? "on" : "off" },
    });
  }

  /** Removes the app: a current code proves the person holds it. */
  async remove(user: StaffUser, code: unknown): Promise<void> {
    const state = await this.deps.repo.stateOf(user.id);
    if (!state?.secret) return;
    const { secret, enabled } = state;
    await this.deps.transaction(async (tx) => {
      if (enabled) {
        const step = matchTotp(secret, String(code ?? ""), this.clock());
        if (step === null || !(await this.deps.repo.takeStep(user.id, step, tx)))
          throw new ValidationError(WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
      }
      await this.deps.repo.clear(user.id, tx);
      // A secret never confirmed was never on: dropping it is no change to the account.
      if (enabled) await this.appEvent(tx, user, false);
    });
  }

  /**
   * Login's second step: "off" without an app or a passkey; else either an app's code matching a step not used
   * before, or an assertion by one of the person's passkeys on a challenge issued to them.
   */
  async check(
    userId: number,
    code: string | undefined,
    passkey?: AuthenticationResponseJSON,
  ): Promise<"off" | "ok" | "missing" | "wrong"> {
    const state = await this.deps.repo.stateOf(userId);
    const app = Boolean(state?.enabled && state.secret);
    const keys = (await this.deps.passkeys?.has(userId)) ?? false;
    if (!app && !keys) return "off";
    if (passkey) return keys && (await this.deps.passkeys?.verify(userId, passkey)) ? "ok" : "wrong";
    if (!code) return "missing";
    if (!app || !state?.secret) return "wrong";
    const step = matchTotp(state.secret, code, this.clock());
    return step !== null && (await this.deps.repo.takeStep(userId, step)) ? "ok" : "wrong";
  }

  /** The ask after a right password: whether the person has an app, and their passkeys' options (or null). */
  async secondStepAsk(userId: number): Promise<TwoStepRequiredError> {
    const state = await this.deps.repo.stateOf(userId);
    const options = (await this.deps.passkeys?.signInOptions(userId)) ?? null;
    return new TwoStepRequiredError(Boolean(state?.enabled) || !options, options);
  }

  /** Whether this person has a second step in force: an authenticator app or a passkey. */
  async hasSecondStep(userId: number): Promise<boolean> {
    const state = await this.deps.repo.stateOf(userId);
    if (state?.enabled) return true;
    return (await this.deps.passkeys?.has(userId)) ?? false;
  }

  /** Whether this signed-in user must add a second step first (the owner requires it, they have neither). */
  async mustSetUp(userId: number): Promise<boolean> {
    const state = await this.deps.repo.stateOf(userId);
    if (!state?.required || state.enabled) return false;
    return !((await this.deps.passkeys?.has(userId)) ?? false);
  }

  required(): Promise<boolean> {
    return this.deps.repo.required();
  }

  async setRequired(actor: StaffUser, required: boolean): Promise<void> {
    if (actor.role !== "owner") throw new ForbiddenError("Only an owner may require two-step sign-in");
    // An owner without a second step of their own would be held at the two-step page too (docs/decisions.md#38).
    if (required && !(await this.hasSecondStep(actor.id))) throw new ConflictError(OWN_SECOND_STEP_FIRST_MESSAGE);
    await this.deps.transaction(async (tx) => {
      const before = await this.deps.repo.required(tx);
      await this.deps.repo.setRequired(required, tx);
      // The same setting again changes nothing and writes no event (AuditLog.record).
      await this.deps.audit.record(tx, {
        actor: `staff:${actor.id}`,
        action: "staff_settings.require_two_step",
        recordType: "staff_setting",
        recordId: "require_two_step",
        before: { required: before },
        after: { required },
      });
    });
  }
}
