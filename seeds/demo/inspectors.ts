// Three demo inspectors with working hours (docs/decisions.md#37), so the wizard offers only their free times
// and the demo bookings go to them. Their password is the demo staff login's (README); never in production.
import type { Container } from "../../src/container.js";

export const DEMO_INSPECTORS = [
  {
    email: "maya.chen@havenhomehealth.ca",
    firstName: "Maya",
    lastName: "Chen",
    weekdays: "mon-fri",
    from: "08:00",
    to: "17:00",
  },
  {
    email: "luc.tremblay@havenhomehealth.ca",
    firstName: "Luc",
    lastName: "Tremblay",
    weekdays: "mon-fri",
    from: "09:00",
    to: "18:00",
  },
  {
    email: "priya.nair@havenhomehealth.ca",
    firstName: "Priya",
    lastName: "Nair",
    weekdays: "tue-sat",
    from: "08:00",
    to: "16:00",
  },
] as const;

/** Creates the demo inspectors and their hours unless they exist (safe to repeat); none in production. */
export async function ensureDemoInspectors(container: Container): Promise<number> {
  if (container.env.NODE_ENV === "production") return 0;
  let created = 0;
  for (const i of DEMO_INSPECTORS) {
    const result = await container.users.ensure({
      email: i.email,
      firstName: i.firstName,
      lastName: i.lastName,
      password: container.env.DEMO_STAFF_PASSWORD,
      role: "inspector",
    });
    if (!result.created) continue;
    created++;
    await container.inspectors.setHours(i.email, { weekdays: i.weekdays, from: i.from, to: i.to });
  }
  return created;
}
