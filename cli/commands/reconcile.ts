import type { Command } from "commander";
import { printJson, withContainer } from "../context.js";

// `haven subscriptions reconcile`: the worker's nightly `subscriptions:reconcile` on demand (docs/decisions.md#34).
// Haven's subscriptions, invoices and refunds are compared with Stripe's, page by page; what a missed webhook left
// behind is repaired through the webhooks' own write paths, and every difference is printed.

export function registerReconcile(subscriptions: Command) {
  subscriptions
    .command("reconcile")
    .description(
      "Compare Haven's subscriptions, invoices, refunds and disputes with Stripe's, repair what missed webhooks left behind, and print every difference (safe to repeat)",
    )
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExamples:\n  haven subscriptions reconcile\n  haven subscriptions reconcile --json")
    .action((options: { json?: boolean }) =>
      withContainer(async (container) => {
        const result = await container.invoiceSide.reconcile.run();
        if (options.json) return printJson(result);
        if (result.mode === "demo") return console.log(result.message);
        const { subscriptions, invoices, refunds, disputes } = result.checked;
        console.log(
          `Checked ${subscriptions} subscription(s), ${invoices} invoice(s), ${refunds} refund(s) and ${disputes} dispute(s) in Stripe.`,
        );
        for (const d of result.differences)
          console.log(
            `  ${d.repaired ? "repaired" : "NOT repaired"}  ${d.kind.replace(/_/g, " ")}  ${d.id}: ${d.detail}`,
          );
        console.log(`${result.message}.`);
      }),
    );
}
