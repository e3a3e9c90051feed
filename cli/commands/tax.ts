import { type Command, InvalidArgumentError } from "commander";
import { ValidationError } from "../../src/http/errors.js";
import { isIsoDate } from "../../src/shared/business-time.js";
import { TAX_RETURN_NAMES, type TaxReturnFigures } from "../../src/modules/invoices/index.js";
import { printJson, withContainer } from "../context.js";

// `haven tax report --from … --to …`: the figures of the GST/HST return and of the QST return (docs/decisions.md#50),
// then each tax by province and rate: the same report as /admin/tax and GET /api/tax-report (and its CSV).

const day = (label: string) => (value: string) => {
  if (!isIsoDate(value)) throw new InvalidArgumentError(`${label} must be a date as YYYY-MM-DD`);
  return value;
};
const money = (amount: number) => `$${amount.toFixed(2)}`.padStart(12);

/** One return's figures, one a line, as the page names them. */
function printReturn(title: string, f: TaxReturnFigures, lines: [string, string, string]) {
  console.log(`  ${title}`);
  const row = (label: string, amount: number) => console.log(`    ${label.padEnd(52)}${money(amount)}`);
  row(lines[0], f.netSales);
  row("  Invoiced", f.sales);
  row("  Refunded", f.salesRefunded);
  row(lines[1], f.taxCollected);
  row(lines[2], f.adjustments);
  row("Net tax", f.netTax);
  if (f.unpaidTax) row("Of the tax, on invoices not paid yet", f.unpaidTax);
}

export function registerTax(program: Command) {
  const tax = program.command("tax").description("Sales tax (GST/HST, QST): the figures for the returns");
  tax
    .command("report")
    .description(
      "The GST/HST return's and the QST return's figures (an invoice counts on the day its tax fell due, the earlier of its date and its payment; a refund on the day it was made), then each tax by province and rate; dates are business days, both included",
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
        printReturn(`${TAX_RETURN_NAMES.gstHst}:`, report.gstHst, [
          "All sales before tax, less refunds (line 101)",
          "GST and HST collected or collectible (line 103)",
          "Adjustments: refunded by credit notes (line 107)",
        ]);
        printReturn(`${TAX_RETURN_NAMES.qst}:`, report.qst, [
          "Quebec sales before tax, less refunds",
          "QST collected or collectible",
          "Adjustments: refunded by credit notes",
        ]);
        console.log("  By province and tax:");
        if (!report.lines.length) return console.log("    No invoice fell due and nothing was refunded in this range.");
        console.log(
          `    ${"Province".padEnd(9)}${"Tax".padEnd(13)}${"Net sales".padStart(12)}${"Collected".padStart(12)}${"Refunded".padStart(12)}${"Net".padStart(12)}`,
        );
        for (const l of report.lines)
          console.log(
            `    ${l.province.padEnd(9)}${l.label.padEnd(13)}${money(l.netSales)}${money(l.collected)}${money(l.refunded)}${money(l.net)}`,
          );
      });
    });
}
