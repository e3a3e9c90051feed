// The `haven` program: its commands and how a failure is said. cli/index.ts runs it as the process.
import { Command, CommanderError } from "commander";
import { ConfigError } from "../src/config/env.js";
import { HttpError } from "../src/http/errors.js";
import { registerDb } from "./commands/db.js";
import { registerDbBackup } from "./commands/db-backup.js";
import { registerPlans } from "./commands/plans.js";
import { registerUsers } from "./commands/users.js";
import { registerInspectors } from "./commands/inspectors.js";
import { registerDemo } from "./commands/demo.js";
import { registerShares } from "./commands/shares.js";
import { registerMaintenance } from "./commands/maintenance.js";
import { registerCalendar } from "./commands/calendar.js";
import { registerReports } from "./commands/reports.js";
import { registerCustomers } from "./commands/customers.js";
import { registerSubscriptions } from "./commands/subscriptions.js";
import { registerReconcile } from "./commands/reconcile.js";
import { registerTax } from "./commands/tax.js";
import { registerDoctor } from "./commands/doctor.js";

export function buildProgram(): Command {
  const program = new Command("haven")
    .description("Operate Haven: database, plans, staff users")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  registerDb(program);
  // backup and restore live in their own file, under the same `db` command.
  registerDbBackup(program.commands.find((c) => c.name() === "db") as Command);
  registerPlans(program);
  registerUsers(program);
  registerInspectors(program);
  registerDemo(program);
  registerShares(program);
  registerMaintenance(program);
  registerCalendar(program);
  registerReports(program);
  registerCustomers(program);
  registerSubscriptions(program);
  // reconcile lives in its own file, under the same `subscriptions` command.
  registerReconcile(program.commands.find((c) => c.name() === "subscriptions") as Command);
  registerTax(program);
  registerDoctor(program);
  for (const command of program.commands) command.exitOverride().showHelpAfterError("(run with --help for usage)");
  return program;
}

/** A known failure prints one clear line and exits 1; only a bug shows a stack. */
export async function main(argv = process.argv): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    // A command that finished with a failure to report (doctor, reports generate) set process.exitCode.
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    // The reader of our output went away (`haven … | head`): nothing left to say.
    if ((error as NodeJS.ErrnoException).code === "EPIPE") return 1;
    if (error instanceof HttpError) {
      const fields = error.fields
        ? Object.entries(error.fields)
            .map(([k, v]) => `\n  ${k}: ${v}`)
            .join("")
        : "";
      console.error(`haven: ${error.message}${fields}`);
      return 1;
    }
    if (error instanceof ConfigError) {
      console.error(`haven: ${error.message}`);
      return 1;
    }
    const message = (error as Error).message ?? String(error);
    console.error(`haven: ${message.split("\n")[0]}`);
    if (process.env.HAVEN_DEBUG) console.error(error);
    return 1;
  }
}
