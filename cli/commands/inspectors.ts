import type { Command } from "commander";
import { printJson, withContainer } from "../context.js";

// Inspectors' working hours and time off (docs/decisions.md#37). Inspectors are staff users of role inspector
// (`haven users create --role inspector`); bookings go only to those with hours.
export function registerInspectors(program: Command) {
  const inspectors = program.command("inspectors").description("Inspectors' working hours and time off");

  inspectors
    .command("list")
    .description("List the inspectors, their working hours and their time off from now on")
    .option("--json", "print JSON")
    .action((options: { json?: boolean }) =>
      withContainer(async (container) => {
        const list = await container.inspectors.list();
        if (options.json) return printJson(list);
        if (!list.length)
          return console.log(
            "No inspectors: bookings take any time (haven users create --role inspector, then haven inspectors hours).",
          );
        for (const i of list) {
          console.log(`#${i.id} ${i.name} <${i.email}>: ${i.hours || "no working hours (gets no bookings)"}`);
          for (const t of i.timeOff)
            console.log(
              `  time off #${t.id}: ${t.startsAt.toISOString()} to ${t.endsAt.toISOString()}${t.reason ? ` (${t.reason})` : ""}`,
            );
        }
      }),
    );

  inspectors
    .command("hours <email>")
    .description("Set an inspector's working hours on some weekdays, in the business time zone (BUSINESS_TZ)")
    .requiredOption("--weekday <days>", "mon, tue, …, sun; a list (mon,wed) or a range (mon-fri)")
    .option("--from <HH:MM>", "start of the day, 24-hour clock")
    .option("--to <HH:MM>", "end of the day, 24-hour clock")
    .option("--off", "no working hours on those weekdays")
    .addHelpText(
      "after",
      "\nExamples:\n  haven inspectors hours ben@example.com --weekday mon-fri --from 08:00 --to 17:00\n  haven inspectors hours ben@example.com --weekday fri --off",
    )
    .action((email: string, options: { weekday: string; from?: string; to?: string; off?: boolean }) =>
      withContainer(async (container) => {
        const { inspector, weekdays } = await container.inspectors.setHours(email, {
          weekdays: options.weekday,
          from: options.from,
          to: options.to,
          off: options.off,
        });
        const names = weekdays.map((d) => ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][d]).join(", ");
        console.log(
          options.off
            ? `${inspector.name} no longer works on ${names}.`
            : `${inspector.name} works ${options.from}-${options.to} on ${names}.`,
        );
      }),
    );

  inspectors
    .command("time-off <email>")
    .description("Add time off: whole days (YYYY-MM-DD, both included) or 'YYYY-MM-DD HH:MM' in the business zone")
    .requiredOption("--from <when>", "first day, or start")
    .requiredOption("--to <when>", "last day, or end")
    .option("--reason <text>", "why, for the office")
    .addHelpText(
      "after",
      "\nExamples:\n  haven inspectors time-off ben@example.com --from 2026-12-24 --to 2026-12-26 --reason Holidays\n  haven inspectors time-off ben@example.com --from '2026-12-02 12:00' --to '2026-12-02 17:00'",
    )
    .action((email: string, options: { from: string; to: string; reason?: string }) =>
      withContainer(async (container) => {
        const off = await container.inspectors.addTimeOff(email, options);
        console.log(`Time off #${off.id}: ${off.startsAt.toISOString()} to ${off.endsAt.toISOString()}.`);
      }),
    );

  inspectors
    .command("time-off-remove <id>")
    .description("Remove a time off by its number (haven inspectors list shows them)")
    .action((id: string) =>
      withContainer(async (container) => {
        await container.inspectors.removeTimeOff(Number(id));
        console.log(`Removed time off #${id}.`);
      }),
    );

  inspectors
    .command("assign-open")
    .description("Give the bookings that have no inspector yet to free inspectors (after setting up the first ones)")
    .option("--from <date>", "only bookings from this date (YYYY-MM-DD)")
    .action((options: { from?: string }) =>
      withContainer(async (container) => {
        const { assigned, left } = await container.bookings.assignOpenBookings(options);
        console.log(`Assigned ${assigned} bookings; ${left} fit no inspector's free time and stay unassigned.`);
      }),
    );
}
