// The wizard's records (bookings README): its one address line split into a property's parts, the customer and
// home of this browser it reuses, and the details it is prefilled with.
import {
  type NewProperty,
  PROVINCES,
  type Property,
  type SubscriptionPlan,
  US_STATES,
  formatAddress,
  normalizePostalCode,
  sameEmail,
} from "../customers/customers.schemas.js";
import type { Tx } from "../../db/transaction.js";
import type { CustomersService, Viewer } from "../customers/index.js";
import type { WizardPrefill } from "./bookings.constants.js";
import type { WizardBookingInput } from "./bookings.schemas.js";

const sameAddress = (a: string, b: string) =>
  a.trim().toLowerCase().replace(/\s+/g, " ") === b.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * The wizard's address line names this property: the same street, and the same city and postal code
 * when the line has them (a prefilled wizard sends the street alone).
 */
function namesProperty(property: Property, line: string): boolean {
  const split = splitAddress(line);
  return (
    sameAddress(property.address, split.address) &&
    (!split.city || sameAddress(property.city, split.city)) &&
    (!split.postalCode || sameAddress(property.postalCode ?? "", split.postalCode))
  );
}

/**
 * The wizard asks for one address line. 'street, city, ON K1S 2B4' is split into its parts; anything
 * else is kept whole as the street with an empty city, never guessed.
 */
export function splitAddress(
  line: string,
): Pick<NewProperty, "address" | "city" | "postalCode" | "province" | "state"> {
  const parts = line
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const region = /^([A-Za-z]{2})\b\s*(.*)$/.exec(parts[2] ?? "");
  const code = region?.[1]?.toUpperCase() ?? "";
  const isProvince = (PROVINCES as readonly string[]).includes(code);
  const isState = (US_STATES as readonly string[]).includes(code);
  if (parts.length < 3 || !region || !(isProvince || isState))
    return { address: line.trim(), city: "", postalCode: "" };
  return {
    address: parts[0]!,
    city: parts[1]!,
    // 'k1s2b4' is stored as 'K1S 2B4' (docs/decisions.md#31); anything else as typed, in upper case.
    postalCode: normalizePostalCode(region[2]!) ?? region[2]!.trim().toUpperCase(),
    ...(isProvince ? { province: code } : { state: code }),
  };
}

/** What the wizard's records use; BookingsService passes its own. */
export interface WizardRecordsDeps {
  customers: CustomersService;
}

export class WizardRecords {
  private readonly customers: CustomersService;

  constructor(deps: WizardRecordsDeps) {
    this.customers = deps.customers;
  }

  /** The customer's details and latest property, when this browser created that customer. */
  async prefillFor(viewer: Viewer, customerId: number): Promise<WizardPrefill | null> {
    if (viewer.kind !== "customer" || !viewer.customerIds.includes(customerId)) return null;
    const customer = await this.customers.findCustomer(customerId);
    if (!customer) return null;
    const property = (await this.customers.listProperties({ kind: "customer", customerIds: [customerId] })).at(-1);
    const [firstName = "", ...rest] = customer.name.trim().split(/\s+/);
    return {
      customerId,
      firstName,
      lastName: rest.join(" "),
      email: customer.email,
      phone: customer.phone ?? "",
      propertyAddress: property?.address ?? "",
      propertyLine: property ? formatAddress(property) : "",
      propertyType: property?.propertyType ?? "",
      propertySize: property?.squareFootage ? String(property.squareFootage) : "",
      yearBuilt: property?.yearBuilt ? String(property.yearBuilt) : "",
      subscriptionPlan: customer.subscriptionPlan,
    };
  }

  /**
   * What the wizard may reuse of this browser's records: the property the address line names of the
   * customer the wizard was opened for, or else of a customer with the same e-mail; and the plan a new
   * record keeps when the customer was named but the address is another one. Read on the caller's transaction.
   */
  async reusable(
    viewer: Viewer,
    input: WizardBookingInput,
    tx: Tx,
  ): Promise<{ property: Property | null; plan: SubscriptionPlan } | null> {
    if (!input.customerId) {
      const property = await this.ownProperty(viewer, input.email, (p) => namesProperty(p, input.propertyAddress), tx);
      return property ? { property, plan: property.subscriptionPlan as SubscriptionPlan } : null;
    }
    if (viewer.kind !== "customer" || !viewer.customerIds.includes(input.customerId)) return null;
    const customer = await this.customers.findCustomer(input.customerId, tx);
    if (!customer) return null;
    const properties = await this.customers.listProperties({ kind: "customer", customerIds: [customer.id] }, tx);
    return {
      property: properties.findLast((p) => namesProperty(p, input.propertyAddress)) ?? null,
      plan: customer.subscriptionPlan as SubscriptionPlan,
    };
  }

  /**
   * The newest property this browser owns, of a customer with this e-mail (any case), that `matches`
   * picks: what a re-submission, or another date for the same home, reuses (the wizard, onboarding). Inside a
   * transaction, pass it: a second connection taken while one is held can wait on a full pool forever.
   */
  async ownProperty(
    viewer: Viewer,
    email: string,
    matches: (property: Property) => boolean,
    tx?: Tx,
  ): Promise<Property | null> {
    if (viewer.kind !== "customer" || !viewer.customerIds.length) return null;
    const mine = await this.customers.listProperties(viewer, tx);
    return mine.findLast((p) => sameEmail(p.clientEmail, email) && matches(p)) ?? null;
  }
}
