import { type Command, InvalidArgumentError } from "commander";
import { ValidationError } from "../../src/http/errors.js";
import { isIsoDate } from "../../src/shared/business-time.js";
import { printJson, withContainer } from "../context.js";

// `haven tax report --from … --to …`: the GST/HST return's figures (docs/decisions.md#32–34): tax collected on
// invoices paid in the range, tax refunded by refunds made in it, and the net, by province and rate. The same report
// as /admin/tax and GET /api/tax-report.

const day = (label: string) => (value: string) => {
  if (!isIsoDate(value)) throw new InvalidArgumentError(`${label} must be a date as YYYY-MM-DD`);
  return value;
};
const money = (amount: number) => `$${amount.toFixed(2)}`.padStart(12);

export function registerTax(program: Command) {
  const tax = program.command("tax").description("Sales tax (GST/HST, QST): the figures for the return");
  tax
    .command("report")
    .description(
      "GST/HST and QST collected (invoices paid in the range), refunded (refunds made in it) and net, by province and rate; dates are business days, both included",
    )
    .requiredOption("--from <date>", "first day (YYYY-MM-DD)", day("From"))
    .requiredOption("--to <date>", "last day (YYYY-MM-DD)", day("To"))
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  haven tax report --from 2027-01-01 --to 2027-03-31\n  haven tax report --from 2027-01-01 --to 2027-03-31 --json",
    )
    .action((options: { from: string; to: string; json?: boolean }) => {
      if (options.from > options.to) throw new ValidationError("From must be on or before To");
      return withContainer(async (container) => {
        const report = await container.invoiceSide.taxReport.report(options.from, options.to);
        if (options.json) return printJson(report);
        console.log(`Sales tax from ${report.from} to ${report.to} (${container.env.BUSINESS_TZ}), in CAD:`);
        if (!report.lines.length) return console.log("  No tax collected or refunded in this range.");
        console.log(
          `  ${"Province".padEnd(9)}${"Tax".padEnd(13)}${"Net sales".padStart(12)}${"Collected".padStart(12)}${"Refunded".padStart(12)}${"Net".padStart(12)}`,
        );
        for (const l of report.lines)
          console.log(
            `  ${l.province.padEnd(9)}${l.label.padEnd(13)}${money(l.netSales)}${money(l.collected)}${money(l.refunded)}${money(l.net)}`,
          );
        const t = report.totals;
        console.log(
          `  ${"Total".padEnd(22)}${money(t.netSales)}${money(t.collected)}${money(t.refunded)}${money(t.net)}`,
        );
      });
    });
}
