import { ForbiddenError, HttpError, ValidationError } from "../../http/errors.js";
import type { StaffUser } from "./auth.schemas.js";
import { matchTotp, newTotpSecret, otpauthUrl } from "./totp.js";
import type { TwoStepRepository } from "./two-step.repository.js";

export const CODE_REQUIRED_MESSAGE = "Enter the 6-digit code from your authenticator app";
export const WRONG_CODE_MESSAGE = "That code is not right. Enter the newest code from your authenticator app.";
export const SET_UP_FIRST_MESSAGE = "An owner requires two-step sign-in: add an authenticator app first.";

/** A password that was right, for an account with an authenticator app, sent without its code: 401 with the ask. */
export class TwoStepRequiredError extends HttpError {
  readonly twoStepRequired = true;
  constructor() {
    super(401, CODE_REQUIRED_MESSAGE);
  }
}

export interface TwoStepDeps {
  repo: TwoStepRepository;
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

  async status(
    user: StaffUser,
  ): Promise<{ enabled: boolean; required: boolean; pending: { secret: string; url: string } | null }> {
    const state = await this.deps.repo.stateOf(user.id);
    const pending =
      state?.secret && !state.enabled ? { secret: state.secret, url: otpauthUrl(state.secret, user.email) } : null;
    return { enabled: Boolean(state?.enabled), required: Boolean(state?.required), pending };
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
    const step = matchTotp(state.secret, String(code ?? ""), this.clock());
    if (step === null || !(await this.deps.repo.takeStep(user.id, step)))
      throw new ValidationError(WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
    await this.deps.repo.enable(user.id, this.clock());
  }

  /** Removes the app: a current code proves the person holds it. */
  async remove(user: StaffUser, code: unknown): Promise<void> {
    const state = await this.deps.repo.stateOf(user.id);
    if (!state?.secret) return;
    if (state.enabled) {
      const step = matchTotp(state.secret, String(code ?? ""), this.clock());
      if (step === null || !(await this.deps.repo.takeStep(user.id, step)))
        throw new ValidationError(WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
    }
    await this.deps.repo.clear(user.id);
  }

  /** Login's second step: "off" without an app; else the code must match a step not used before. */
  async check(userId: number, code: string | undefined): Promise<"off" | "ok" | "missing" | "wrong"> {
    const state = await this.deps.repo.stateOf(userId);
    if (!state?.enabled || !state.secret) return "off";
    if (!code) return "missing";
    const step = matchTotp(state.secret, code, this.clock());
    return step !== null && (await this.deps.repo.takeStep(userId, step)) ? "ok" : "wrong";
  }

  /** Whether this signed-in user must add an app before anything else (the owner requires it, they have none). */
  async mustSetUp(userId: number): Promise<boolean> {
    const state = await this.deps.repo.stateOf(userId);
    return Boolean(state?.required && !state.enabled);
  }

  required(): Promise<boolean> {
    return this.deps.repo.required();
  }

  async setRequired(actor: StaffUser, required: boolean): Promise<void> {
    if (actor.role !== "owner") throw new ForbiddenError("Only an owner may require two-step sign-in");
    await this.deps.repo.setRequired(required);
  }
}
