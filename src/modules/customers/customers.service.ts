import type { TransactionRunner, Tx } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import type { Viewer } from "./customers.constants.js";
import type { CustomersRepository } from "./customers.repository.js";
import {
  type Customer,
  type NewCustomer,
  type NewProperty,
  type Property,
  type PropertyEdit,
  sameEmail,
} from "./customers.schemas.js";

export const SESSION_TAKEN_MESSAGE =
  "This checkout session's property information was already saved with another email";

/**
 * The job a home's new address queues, in the edit's transaction (payload `{propertyId}`): the subscriptions module
 * runs it, so that the home's live plans are taxed in its province from their next invoice (docs/decisions.md#57).
 */
export const HOME_MOVED_TASK = "customers:home-moved";
/**
 * The job a customer's new language queues, in the edit's transaction (payload `{customerId}`): the subscriptions
 * module runs it, so that Stripe's customer (its e-mails, invoices and pages) speaks it too (docs/decisions.md#65).
 */
export const CUSTOMER_LOCALE_TASK = "customers:locale-changed";

// Who is asking is declared in customers.constants.ts, where src/http/viewer.ts may read it.
export type { Viewer };

/** What CustomersService uses; src/container.ts builds them. */
export interface CustomersDeps {
  customers: CustomersRepository;
  transaction: TransactionRunner;
  /** The audit trail: staff edits write an event in their transaction (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
}

export class CustomersService {
  private readonly customers: CustomersRepository;
  private readonly transaction: TransactionRunner;
  private readonly audit: Pick<AuditLog, "record">;

  constructor(deps: CustomersDeps) {
    this.customers = deps.customers;
    this.transaction = deps.transaction;
    this.audit = deps.audit;
  }

  /**
   * Creates a customer and their first property. With a checkout session id it is idempotent:
   * a retry with the same e-mail (any case) returns the customer and property created the first
   * time; a different e-mail is a 409, so a session id alone never hands over someone's records.
   * The unique session id makes concurrent first attempts safe: one inserts, the others wait and read it.
   */
  async createWithProperty(
    customer: NewCustomer,
    property: NewProperty,
    tx?: Tx,
  ): Promise<{ customer: Customer; property: Property; created: boolean }> {
    const work = async (trx: Tx) => {
      const inserted = await this.customers.insertCustomer(customer, trx);
      if (!inserted) {
        const existing = await this.customers.findCustomerBySession(customer.stripeSessionId!, trx);
        if (!existing || !sameEmail(existing.email, customer.email)) {
          throw new ConflictError(SESSION_TAKEN_MESSAGE, { email: SESSION_TAKEN_MESSAGE });
        }
        const [first] = await this.customers.listProperties([existing.id], trx);
        return { customer: existing, property: first!, created: false };
      }
      return {
        customer: inserted,
        property: await this.customers.insertProperty(inserted, property, trx),
        created: true,
      };
    };
    return tx ? work(tx) : this.transaction(work);
  }

  /** Many customers with one property each, in the caller's transaction (the demo seed); no checkout session. */
  importMany(
    rows: { customer: NewCustomer; property: NewProperty; createdAt: Date }[],
    tx: Tx,
  ): Promise<{ customerId: number; propertyId: number }[]> {
    return this.customers.insertMany(rows, tx);
  }

  /** The properties this viewer may see; `tx`: inside the caller's transaction, on its connection. */
  listProperties(viewer: Viewer, tx?: Tx): Promise<Property[]> {
    if (viewer.kind === "staff") return this.customers.listProperties(undefined, tx);
    if (!viewer.customerIds.length) return Promise.resolve([]);
    return this.customers.listProperties(viewer.customerIds, tx);
  }

  /** Staff lists (docs/decisions.md#15): a page of every property, newest first, and the full count. */
  searchProperties(query: {
    q?: string;
    limit: number;
    offset: number;
    /** Only these (an inspector's own homes, docs/decisions.md#36). */
    propertyIds?: number[];
  }): Promise<{ rows: Property[]; total: number }> {
    return this.customers.searchProperties(query);
  }

  /** Every property matching the staff search, newest first, in batches (CSV export). */
  exportProperties(query: { q?: string }): AsyncGenerator<Property[]> {
    return this.customers.exportProperties(query);
  }

  /** The property, when this viewer may see it; otherwise null, as if it did not exist. */
  async findPropertyFor(viewer: Viewer, id: number, tx?: Tx): Promise<Property | null> {
    const property = await this.customers.findProperty(id, tx);
    if (!property) return null;
    if (viewer.kind === "staff" || viewer.customerIds.includes(property.customerId)) return property;
    return null;
  }

  /** Staff edit of a property and its customer, in one transaction; a 404 for an unknown property. */
  async editProperty(id: number, edit: PropertyEdit): Promise<Property> {
    const updated = await this.transaction(async (trx) => {
      // An empty edit only locks the row and reads it: the "before" no other edit can change meanwhile.
      const before = await this.customers.updateProperty(id, {}, {}, trx);
      // The customer's language is theirs, not the home's: the trail shows it beside the home when it changes.
      const localeBefore =
        edit.customer.locale && before
          ? (await this.customers.findCustomer(before.customerId, trx))?.locale
          : undefined;
      const after = await this.customers.updateProperty(id, edit.property, edit.customer, trx);
      if (after)
        await this.audit.record(trx, {
          action: "property.update",
          recordType: "property",
          recordId: id,
          before: localeBefore ? { ...before, clientLocale: localeBefore } : before,
          after: localeBefore ? { ...after, clientLocale: edit.customer.locale } : after,
        });
      if (after && localeBefore && localeBefore !== edit.customer.locale)
        await trx.raw(
          "select graphile_worker.add_job(?, json_build_object('customerId', ?::int), max_attempts => 25)",
          [CUSTOMER_LOCALE_TASK, after.customerId],
        );
      if (after && before && (after.postalCode !== before.postalCode || after.province !== before.province))
        await trx.raw(
          "select graphile_worker.add_job(?, json_build_object('propertyId', ?::int), max_attempts => 25)",
          [HOME_MOVED_TASK, id],
        );
      return after;
    });
    if (!updated) throw new NotFoundError("Property not found");
    return updated;
  }

  findCustomer(id: number, tx?: Tx): Promise<Customer | null> {
    return this.customers.findCustomer(id, tx);
  }

  findCustomerBySession(stripeSessionId: string): Promise<Customer | null> {
    return this.customers.findCustomerBySession(stripeSessionId);
  }
}
