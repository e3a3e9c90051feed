import type { Knex } from "knex";
import pino, { type Logger } from "pino";
import type { Env } from "./config/env.js";
import { type Assets, loadAssets } from "./http/assets.js";
import { type TransactionRunner, transactionRunner } from "./db/transaction.js";
import { CustomersRepository } from "./modules/customers/customers.repository.js";
import { CustomersService } from "./modules/customers/customers.service.js";
import { StaffUsersRepository } from "./modules/auth/users.repository.js";
import { UsersService } from "./modules/auth/users.service.js";
import { PlansRepository } from "./modules/plans/plans.repository.js";
import { PlansService } from "./modules/plans/plans.service.js";

/** Every service the web app, the worker and the CLI share, built once per process. */
export interface Container {
  env: Env;
  db: Knex;
  databaseUrl: string;
  log: Logger;
  assets: () => Assets;
  transaction: TransactionRunner;
  plans: PlansService;
  users: UsersService;
  customers: CustomersService;
}

export function createContainer(env: Env, databaseUrl: string, db: Knex, options: { log?: Logger } = {}): Container {
  const log = options.log ?? pino({ level: env.LOG_LEVEL });
  let assets: Assets | null = null;
  const transaction = transactionRunner(db);
  return {
    env,
    db,
    databaseUrl,
    log,
    // Read the Vite manifest lazily: the CLI and the API tests never need it.
    assets: () => {
      assets ??= loadAssets();
      return assets;
    },
    plans: new PlansService(new PlansRepository(db)),
    transaction,
    users: new UsersService(new StaffUsersRepository(db)),
    customers: new CustomersService(new CustomersRepository(db), transaction),
  };
}
