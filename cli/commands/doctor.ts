import type { Command } from "commander";
import { formatChecks, runDoctor } from "../../src/ops/doctor.js";
import { loadCliDotenv, printJson, printLine } from "../context.js";

export function registerDoctor(program: Command) {
  program
    .command("doctor")
    .description(
      "Check what an operator gets wrong: modes and secrets, PUBLIC_URL, SMTP, Stripe, migrations, backups, disk; exit 1 on any failure",
    )
    .option(
      "--host <host>",
      "the Host header the proxy forwards (e.g. haven.example.com): compared with PUBLIC_URL without a request",
    )
    .option("--json", "print the checks as JSON")
    .addHelpText(
      "after",
      "\nNothing is changed and no e-mail is sent: SMTP gets EHLO only, Stripe is read.\nExamples:\n  haven doctor\n  docker compose exec -T web haven doctor --host haven.example.com",
    )
    .action(async (options: { host?: string; json?: boolean }) => {
      loadCliDotenv();
      const checks = await runDoctor({ source: process.env, host: options.host });
      if (options.json) await printJson(checks);
      else await printLine(formatChecks(checks));
      if (checks.some((c) => c.status === "fail")) process.exitCode = 1;
    });
}
