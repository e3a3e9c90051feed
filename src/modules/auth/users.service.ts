import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { parse } from "../../http/validate.js";
import { type NewStaffUser, type StaffUser, newStaffUserSchema } from "./auth.schemas.js";
import type { TransactionRunner } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import type { PasswordHashing } from "./passwords.js";
import type { StaffUsersRepository } from "./users.repository.js";

/** Staff roles (docs/decisions.md#36): inspectors are the staff whose calendars bookings fill (#37). */
export const STAFF_ROLES = ["owner", "office", "inspector"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** What UsersService uses; src/container.ts builds them. */
export interface UsersDeps {
  users: StaffUsersRepository;
  transaction: TransactionRunner;
  /** The audit trail: accounts created, disabled or deleted (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
  passwords: PasswordHashing;
}

export class UsersService {
  private readonly users: StaffUsersRepository;

  constructor(private readonly deps: UsersDeps) {
    this.users = deps.users;
  }

  /** A new staff user; an owner unless `role` says otherwise. */
  async create(input: NewStaffUser & { role?: string }): Promise<StaffUser> {
    const user = parse(newStaffUserSchema, input);
    const role = input.role ?? "owner";
    if (!(STAFF_ROLES as readonly string[]).includes(role))
      throw new ValidationError("Invalid input", { role: `Role must be one of ${STAFF_ROLES.join(", ")}` });
    if (await this.users.existsByEmail(user.email)) {
      throw new ConflictError(`A staff user with e-mail ${user.email} already exists`);
    }
    const passwordHash = await this.deps.passwords.hash(user.password);
    return this.deps.transaction(async (tx) => {
      const created = await this.users.insert(
        { email: user.email, first_name: user.firstName, last_name: user.lastName, password_hash: passwordHash, role },
        tx,
      );
      await this.deps.audit.record(tx, {
        action: "staff_user.create",
        recordType: "staff_user",
        recordId: created.id,
        after: created,
      });
      return created;
    });
  }

  /** Creates the user unless the e-mail is taken; used by the demo seed. */
  async ensure(input: NewStaffUser & { role?: string }): Promise<{ user: StaffUser; created: boolean }> {
    const existing = await this.users.findWithHashByEmail(input.email, { includeDisabled: true });
    if (existing) return { user: existing.user, created: false };
    return { user: await this.create(input), created: true };
  }

  /** The user for these credentials, or null: one answer for every kind of failure. */
  async verify(email: string, password: string): Promise<StaffUser | null> {
    const found = await this.users.findWithHashByEmail(email);
    if (!found) {
      await this.deps.passwords.verifyDecoy(password);
      return null;
    }
    const ok = await this.deps.passwords.verify(found.passwordHash, password);
    if (!ok) return null;
    await this.users.touchLogin(found.user.id);
    return found.user;
  }

  /** The user with this e-mail (any case), disabled or not. */
  async findByEmail(email: string): Promise<StaffUser | null> {
    return (await this.users.findWithHashByEmail(email, { includeDisabled: true }))?.user ?? null;
  }

  findById(id: number): Promise<StaffUser | null> {
    return this.users.findById(id);
  }

  /** Every staff user, disabled ones too (`haven users list`); never a password hash. */
  list() {
    return this.users.list();
  }

  /** `haven users disable`: the user can no longer sign in, and their open sessions end at once. */
  async disable(email: string): Promise<StaffUser> {
    return this.deps.transaction(async (tx) => {
      const user = await this.users.disable(email, tx);
      if (!user) throw new NotFoundError(`No staff user with e-mail ${email}`);
      await this.deps.audit.record(tx, {
        action: "staff_user.disable",
        recordType: "staff_user",
        recordId: user.id,
        before: { disabled: false },
        after: { disabled: true },
      });
      return user;
    });
  }

  /** Deletes the user; their sessions go with them (ON DELETE CASCADE). */
  delete(id: number): Promise<boolean> {
    return this.deps.transaction(async (tx) => {
      const before = await this.users.findById(id);
      const deleted = await this.users.deleteById(id, tx);
      if (deleted)
        await this.deps.audit.record(tx, {
          action: "staff_user.delete",
          recordType: "staff_user",
          recordId: id,
          before,
          after: null,
        });
      return deleted;
    });
  }
}
