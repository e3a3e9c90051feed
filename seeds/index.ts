import type { Container } from "../src/container.js";

/** Plans and the local demo staff user. Every step is safe to repeat. */
export async function seedAll(container: Container): Promise<{ plansAdded: number; demoUserCreated: boolean }> {
  const plansAdded = await container.plans.seed();
  // The demo login is published in the README: never in production.
  if (container.env.NODE_ENV === "production") return { plansAdded, demoUserCreated: false };
  const { created } = await container.users.ensure({
    email: container.env.DEMO_STAFF_EMAIL,
    // An owner (UsersService.create's default role), named as one on /admin/staff.
    firstName: "Demo",
    lastName: "Owner",
    password: container.env.DEMO_STAFF_PASSWORD,
  });
  return { plansAdded, demoUserCreated: created };
}

/** `npm start` seeds only a new database: once plans exist, it leaves the data alone. */
export async function seedIfEmpty(container: Container): Promise<boolean> {
  const [{ count }] = (await container.db("plans").count({ count: "*" })) as [{ count: number }];
  if (Number(count) > 0) return false;
  await seedAll(container);
  // A newcomer's first `npm start` shows a living portal: about 40 homes (seeds/demo/). Never in production.
  if (container.env.NODE_ENV !== "production") {
    const { seedDemo } = await import("./demo/index.js");
    await seedDemo(container, { properties: 40, inspectors: true });
  }
  return true;
}
