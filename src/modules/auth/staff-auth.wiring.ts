// The staff side's sign-in, built once for src/container.ts: staff users, sessions, the second step (TOTP and
// passkeys) and the owner's staff accounts, over one set of repositories.
import type { Knex } from "knex";
import type { TransactionRunner } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import { AuthService } from "./auth.service.js";
import { LoginAttemptsRepository } from "./login-attempts.repository.js";
import { passwordHashing } from "./passwords.js";
import { StaffSessionsRepository } from "./sessions.repository.js";
import { StaffAccountsRepository } from "./staff-accounts.repository.js";
import { type StaffAccountsDeps, StaffAccountsService } from "./staff-accounts.service.js";
import { StaffPasskeysRepository } from "./staff-passkeys.repository.js";
import { StaffPasskeys } from "./staff-passkeys.service.js";
import { TwoStepRepository } from "./two-step.repository.js";
import { TwoStepService } from "./two-step.service.js";
import { StaffUsersRepository } from "./users.repository.js";
import { UsersService } from "./users.service.js";

export interface StaffAuthDeps {
  db: Knex;
  transaction: TransactionRunner;
  audit: AuditLog;
  mail: StaffAccountsDeps["mail"];
  publicUrl: string;
  /** A deactivated inspector's future bookings go to others (docs/decisions.md#37). */
  onDeactivated: NonNullable<StaffAccountsDeps["onDeactivated"]>;
  /** The tests hash passwords with a lighter argon2id cost (src/modules/auth/passwords.ts). */
  nodeEnv: Parameters<typeof passwordHashing>[0];
}

export function createStaffAuth({ db, transaction, audit, mail, publicUrl, onDeactivated, nodeEnv }: StaffAuthDeps) {
  const passwords = passwordHashing(nodeEnv);
  const users = new UsersService({ users: new StaffUsersRepository(db), transaction, audit, passwords });
  const staffPasskeys = new StaffPasskeys({ repo: new StaffPasskeysRepository(db), publicUrl, transaction, audit });
  const twoStep = new TwoStepService({ repo: new TwoStepRepository(db), passkeys: staffPasskeys, transaction, audit });
  const attempts = new LoginAttemptsRepository(db);
  const auth = new AuthService({ users, sessions: new StaffSessionsRepository(db), attempts, twoStep });
  const staffAccounts = new StaffAccountsService({
    repo: new StaffAccountsRepository(db),
    transaction,
    mail,
    attempts,
    settings: { publicUrl },
    audit,
    passwords,
    onDeactivated,
  });
  return { users, staffPasskeys, twoStep, auth, staffAccounts };
}
