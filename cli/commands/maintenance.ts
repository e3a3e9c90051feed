import cliProgress from "cli-progress";
import { type Command, InvalidArgumentError } from "commander";
import { DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS } from "../../src/modules/maintenance/maintenance.schemas.js";
import { printJson, withContainer } from "../context.js";

/** How many created tasks the text output lists before summing up the rest. */
const LISTED = 50;

const horizonDays = (value: string): number => {
  const days = Number(value);
  if (!/^\d+$/.test(value.trim()) || days > MAX_HORIZON_DAYS)
    throw new InvalidArgumentError(`Horizon must be a whole number of days from 0 to ${MAX_HORIZON_DAYS}`);
  return days;
};

export function registerMaintenance(program: Command) {
  const maintenance = program.command("maintenance").description("Recurring maintenance schedules and their tasks");

  maintenance
    .command("expand")
    .description(
      "Expand every schedule into dated tasks up to the horizon; safe to repeat (the worker does this daily)",
    )
    .option(
      "--horizon <days>",
      `days ahead of today (business time zone), 0 to ${MAX_HORIZON_DAYS}`,
      horizonDays,
      DEFAULT_HORIZON_DAYS,
    )
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExamples:\n  haven maintenance expand\n  haven maintenance expand --horizon 365 --json")
    .action((options: { horizon: number; json?: boolean }) =>
      withContainer(async (container) => {
        // The bar goes to stderr, and only on a terminal: --json output and pipes stay clean.
        const bar = new cliProgress.SingleBar(
          {
            format: "Expanding {bar} {value}/{total} schedules | {created} task(s) created",
            stream: process.stderr,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        );
        const result = await container.maintenance.expand({
          horizonDays: options.horizon,
          collect: true,
          onStart: (total) => bar.start(total, 0, { created: 0 }),
          onProgress: (done, created) => bar.update(done, { created }),
        });
        bar.stop();
        if (options.json) return printJson(result);
        for (const task of result.tasks.slice(0, LISTED))
          console.log(`  ${task.scheduledDate}  task #${task.id}  ${task.title} (schedule #${task.scheduleId})`);
        if (result.tasks.length > LISTED) console.log(`  … and ${result.tasks.length - LISTED} more`);
        console.log(
          result.created
            ? `Created ${result.created} task(s) from ${result.schedules} schedule(s), through ${result.through}.`
            : `Nothing to create: every schedule is expanded through ${result.through}.`,
        );
      }),
    );

  maintenance
    .command("reminders")
    .description("Queue tomorrow's reminder e-mails now (the worker does this every hour; each goes out once)")
    .action(() =>
      withContainer(
        async (container) => {
          const sent = await container.maintenance.sendReminders();
          console.log(`Queued reminders for ${sent.date}: ${sent.tasks} task(s), ${sent.bookings} booking(s).`);
        },
        { links: true },
      ),
    );
}
