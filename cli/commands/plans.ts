import { type Command, InvalidArgumentError } from "commander";
import { type PlanType, planTypeSchema, priceSchema } from "../../src/modules/plans/plans.schemas.js";
import { printJson, withContainer } from "../context.js";

/** Commander argument parser from a zod schema: a bad value is a clear usage error. */
const parsedBy =
  <T>(schema: {
    safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  }) =>
  (value: string): T => {
    const result = schema.safeParse(value);
    if (!result.success) throw new InvalidArgumentError(result.error.issues[0]?.message ?? "Invalid value");
    return result.data;
  };
const price = parsedBy(priceSchema);
const planType = parsedBy(planTypeSchema);

export function registerPlans(program: Command) {
  const plans = program.command("plans").description("Subscription plans and their prices");

  plans
    .command("list")
    .description("List the plans with both price readings")
    .option("--json", "print JSON")
    .action((options: { json?: boolean }) =>
      withContainer(async (container) => {
        const list = await container.plans.list();
        if (options.json) return printJson(list);
        if (!list.length) return console.log("No plans yet: run `haven plans seed`.");
        console.table(
          list.map((p) => ({
            type: p.type,
            name: p.name,
            "monthly $": p.price,
            "checkout $": p.checkoutPrice,
            coverage: p.coverage,
            popular: p.mostPopular ? "Most Popular" : "",
          })),
        );
      }),
    );

  plans
    .command("seed")
    .description("Insert the standard plans that are missing (safe to repeat)")
    .action(() =>
      withContainer(async (container) => {
        const added = await container.plans.seed();
        console.log(added ? `Added ${added} plan(s).` : "All plans already present: nothing changed.");
      }),
    );

  plans
    .command("set-price")
    .description("Change a plan's pricing-page (monthly) or payment-page (checkout) price")
    .argument("<type>", "basic, standard or premium", planType)
    .option("--monthly <dollars>", "price shown on /pricing", price)
    .option("--checkout <dollars>", "price charged on /checkout", price)
    .action((type: PlanType, options: { monthly?: number; checkout?: number }) =>
      withContainer(async (container) => {
        const plan = await container.plans.setPrice(type, options);
        console.log(`${plan.name}: monthly $${plan.price}, checkout $${plan.checkoutPrice}.`);
      }),
    );
}
