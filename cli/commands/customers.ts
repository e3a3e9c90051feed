import { type Command, InvalidArgumentError } from "commander";
import { customerEmailSchema } from "../../src/modules/privacy/privacy.schemas.js";
import { printJson, withContainer } from "../context.js";

const customerEmail = (value: string): string => {
  const parsed = customerEmailSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError("must be an e-mail address");
  return parsed.data;
};

export function registerCustomers(program: Command) {
  const customers = program
    .command("customers")
    .description("A customer's data: export it, or erase it (privacy requests)");

  customers
    .command("export")
    .description(
      "Print every record Haven holds on the customer with this e-mail, as JSON: properties, bookings, inspections, reports, shares, quotes, tasks, payments and e-mails sent",
    )
    .requiredOption("--email <address>", "the customer's e-mail (any case)", customerEmail)
    .addHelpText("after", "\nExample:\n  haven customers export --email client@example.com > client.json")
    .action((options: { email: string }) =>
      withContainer(async (container) => {
        await printJson(await container.privacy.exportCustomer(options.email));
      }),
    );

  customers
    .command("erase")
    .description(
      "Replace the customer's personal data with placeholders, in one transaction. Payments are kept, anonymised; reports stay for staff without the name",
    )
    .requiredOption("--email <address>", "the customer's e-mail (any case)", customerEmail)
    .option("--yes", "really erase (it cannot be undone)")
    .option("--json", "print what changed as JSON")
    .addHelpText(
      "after",
      "\nExample:\n  haven customers export --email client@example.com > client.json\n  haven customers erase --email client@example.com --yes",
    )
    .action((options: { email: string; yes?: boolean; json?: boolean }) => {
      if (!options.yes) throw new Error(`erasing ${options.email} cannot be undone: add --yes to go ahead`);
      return withContainer(async (container) => {
        const result = await container.privacy.eraseCustomer(options.email);
        if (options.json) return printJson(result);
        const entries = Object.entries(result.changed);
        if (!entries.length) return console.log(`Haven holds nothing on ${result.email}: nothing changed.`);
        console.log(
          `Erased ${result.email} (customer ${result.customerIds.map((id) => `#${id}`).join(", ") || "records without a customer row"}):`,
        );
        for (const [table, n] of entries) console.log(`  ${table}: ${n} row(s)`);
      });
    });

  // My Home: support reads the link to the customer; it is logged, never the token.
  customers
    .command("sign-in-link")
    .description(
      "Print a My Home sign-in link for the customer with this e-mail (support): it works once, within 15 minutes",
    )
    .requiredOption("--email <address>", "the customer's e-mail (any case)", customerEmail)
    .addHelpText("after", "\nExample:\n  haven customers sign-in-link --email client@example.com")
    .action((options: { email: string }) =>
      withContainer(
        async (container) => {
          const link = await container.homeAuth.signInLink(options.email);
          console.log(link.url);
          console.error(
            `haven: sign-in link made for ${link.email}, valid until ${link.expiresAt.toISOString()} (logged)`,
          );
        },
        { links: true },
      ),
    );
}
