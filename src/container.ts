import type { Knex } from "knex";
import pino, { type Logger } from "pino";
import type { Env } from "./config/env.js";
import { type Assets, loadAssets } from "./http/assets.js";
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
  plans: PlansService;
  users: UsersService;
}

export function createContainer(env: Env, databaseUrl: string, db: Knex, options: { log?: Logger } = {}): Container {
  const log = options.log ?? pino({ level: env.LOG_LEVEL });
  let assets: Assets | null = null;
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
    users: new UsersService(new StaffUsersRepository(db)),
  };
}
