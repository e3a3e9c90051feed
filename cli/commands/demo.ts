import cliProgress from "cli-progress";
import { type Command, InvalidArgumentError } from "commander";
import { seedDemo } from "../../seeds/demo/index.js";
import { printJson, withContainer } from "../context.js";

/** A whole number of properties, 1 to 1,000,000. */
function propertiesCount(value: string): number {
  const n = Number(value.replace(/[_,]/g, ""));
  if (!/^\s*[\d_,]+\s*$/.test(value) || !Number.isInteger(n) || n < 1 || n > 1_000_000) {
    throw new InvalidArgumentError("Properties must be a whole number from 1 to 1000000");
  }
  return n;
}

export function registerDemo(program: Command) {
  const demo = program.command("demo").description("Demo data");

  demo
    .command("seed")
    .description(
      "Add demo customers, properties, bookings, inspections in every status and payments over the last 18 months",
    )
    .option("--properties <n>", "how many properties to add", propertiesCount, 40)
    .option("--json", "print the counts as JSON")
    .addHelpText(
      "after",
      "\nEach run adds new homes (the data is deterministic for a given database).\nExample:\n  haven demo seed --properties 100000",
    )
    .action((options: { properties: number; json?: boolean }) =>
      withContainer(async (container) => {
        if (container.env.NODE_ENV === "production")
          throw new Error("Demo data is never seeded in production (NODE_ENV=production)");
        const bar =
          process.stderr.isTTY && !options.json
            ? new cliProgress.SingleBar(
                {
                  format: "Seeding demo data [{bar}] {percentage}% | {value}/{total} properties | ETA {eta_formatted}",
                  stream: process.stderr,
                  hideCursor: true,
                },
                cliProgress.Presets.shades_classic,
              )
            : null;
        const started = Date.now();
        const result = await seedDemo(container, {
          properties: options.properties,
          inspectors: true,
          onProgress: ({ done, total }) => {
            if (!bar) return;
            if (done === 0) bar.start(total, 0);
            else bar.update(done);
          },
        }).finally(() => bar?.stop());
        if (options.json) return printJson(result);
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        const i = result.inspections;
        console.log(
          `Added ${result.properties} properties, ${result.customers} customers, ${result.bookings} bookings, ` +
            `${i.completed + i.in_progress + i.scheduled + i.draft} inspections (${i.completed} completed, ${i.in_progress} in progress, ${i.scheduled} scheduled, ${i.draft} draft) ` +
            `and ${result.payments} payments in ${seconds} s.`,
        );
      }),
    );
}
