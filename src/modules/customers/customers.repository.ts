import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import { propertyMatches } from "../../db/property-search.js";
import type { Tx } from "../../db/transaction.js";
import type { Customer, NewCustomer, NewProperty, Property } from "./customers.schemas.js";

const PROPERTY_COLUMNS: Record<keyof NewProperty, string> = {
  address: "address",
  city: "city",
  province: "province",
  state: "state",
  postalCode: "postal_code",
  propertyType: "property_type",
  squareFootage: "square_footage",
  yearBuilt: "year_built",
  bedrooms: "bedrooms",
  bathrooms: "bathrooms",
  stories: "stories",
  hvacUnits: "hvac_units",
  electricalPanels: "electrical_panels",
  plumbingSystems: "plumbing_systems",
  roofType: "roof_type",
  heatingType: "heating_type",
  coolingType: "cooling_type",
  waterHeaterType: "water_heater_type",
  foundationType: "foundation_type",
  garageType: "garage_type",
  basementStatus: "basement_status",
  ownershipType: "ownership_type",
  occupation: "occupation",
  householdIncome: "household_income",
  householdSize: "household_size",
  financingType: "financing_type",
  notes: "notes",
};

type Row = Record<string, unknown>;

function toProperty(row: Row): Property {
  const property = {
    id: row.id,
    customerId: row.customer_id,
    clientName: row.client_name,
    clientEmail: row.client_email,
    clientPhone: row.client_phone ?? null,
    subscriptionPlan: row.subscription_plan,
    createdAt: (row.created_at as Date).toISOString(),
  } as Record<string, unknown>;
  for (const [key, column] of Object.entries(PROPERTY_COLUMNS)) property[key] = row[column] ?? null;
  return property as unknown as Property;
}

const toCustomer = (row: Row): Customer => ({
  id: row.id as number,
  email: row.email as string,
  name: row.name as string,
  phone: (row.phone as string | null) ?? null,
  subscriptionPlan: row.subscription_plan as string,
  stripeSessionId: (row.stripe_session_id as string | null) ?? null,
  locale: row.locale as Customer["locale"],
  createdAt: (row.created_at as Date).toISOString(),
});

export class CustomersRepository {
  constructor(private readonly db: Knex) {}

  /** Inserts the customer, or returns null when the checkout session already has one. */
  async insertCustomer(customer: NewCustomer, tx: Tx | Knex = this.db): Promise<Customer | null> {
    const rows = await tx("customers")
      .insert({
        email: customer.email,
        name: customer.name,
        phone: customer.phone ?? null,
        subscription_plan: customer.subscriptionPlan,
        stripe_session_id: customer.stripeSessionId ?? null,
        locale: customer.locale ?? "en-CA",
      })
      .onConflict("stripe_session_id")
      .ignore()
      .returning("*");
    return rows[0] ? toCustomer(rows[0]) : null;
  }

  async findCustomerBySession(stripeSessionId: string, tx: Tx | Knex = this.db): Promise<Customer | null> {
    const row = await tx("customers").where({ stripe_session_id: stripeSessionId }).first();
    return row ? toCustomer(row) : null;
  }

  async findCustomer(id: number, tx: Tx | Knex = this.db): Promise<Customer | null> {
    const row = await tx("customers").where({ id }).first();
    return row ? toCustomer(row) : null;
  }

  async insertProperty(customer: Customer, property: NewProperty, tx: Tx | Knex = this.db): Promise<Property> {
    const row: Row = {
      customer_id: customer.id,
      client_name: customer.name,
      client_email: customer.email,
      client_phone: customer.phone,
      subscription_plan: customer.subscriptionPlan,
    };
    for (const [key, column] of Object.entries(PROPERTY_COLUMNS)) {
      const value = property[key as keyof NewProperty];
      if (value !== undefined) row[column] = value;
    }
    const [inserted] = await tx("properties").insert(row).returning("*");
    return toProperty(inserted);
  }

  async findProperty(id: number, tx: Tx | Knex = this.db): Promise<Property | null> {
    const row = await tx("properties").where({ id }).first();
    return row ? toProperty(row) : null;
  }

  /**
   * A staff edit: the property's columns, and the customer's name, e-mail and phone,
   * copied onto every property of theirs (the client columns the staff search reads). search_text is a
   * generated column, so it follows by itself. Null when the property does not exist.
   */
  async updateProperty(
    id: number,
    property: Partial<NewProperty>,
    customer: { name?: string; email?: string; phone?: string; locale?: Customer["locale"] },
    tx: Tx | Knex = this.db,
  ): Promise<Property | null> {
    const current = await tx("properties").where({ id }).forUpdate().first();
    if (!current) return null;
    const now = tx.fn.now();
    const row: Row = {};
    for (const [key, column] of Object.entries(PROPERTY_COLUMNS)) {
      const value = property[key as keyof NewProperty];
      if (value !== undefined) row[column] = value;
    }
    if (Object.keys(row).length)
      await tx("properties")
        .where({ id })
        .update({ ...row, updated_at: now });
    if (Object.keys(customer).length) {
      await tx("customers")
        .where({ id: current.customer_id })
        .update({ ...customer, updated_at: now });
      const copy: Row = {};
      if (customer.name !== undefined) copy.client_name = customer.name;
      if (customer.email !== undefined) copy.client_email = customer.email;
      if (customer.phone !== undefined) copy.client_phone = customer.phone;
      await tx("properties")
        .where({ customer_id: current.customer_id })
        .update({ ...copy, updated_at: now });
    }
    return this.findProperty(id, tx);
  }

  /**
   * A page of properties for staff, newest first, and the count of all that match. The search text
   * matches the address, city, client's name or e-mail anywhere, without case or accents (src/db/property-search.ts).
   */
  async searchProperties(query: {
    q?: string;
    limit: number;
    offset: number;
    /** Only these: an inspector's own homes (docs/decisions.md#36). */
    propertyIds?: number[];
  }): Promise<{ rows: Property[]; total: number }> {
    const filter = (builder: Knex.QueryBuilder) => {
      const searched = this.staffSearch(builder, query.q);
      return query.propertyIds ? searched.whereIn("properties.id", query.propertyIds) : searched;
    };
    const [rows, [count]] = await Promise.all([
      filter(this.db("properties"))
        .orderBy([
          { column: "created_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(query.limit)
        .offset(query.offset),
      filter(this.db("properties")).count<{ n: number }[]>({ n: "*" }),
    ]);
    return { rows: rows.map(toProperty), total: Number(count?.n ?? 0) };
  }

  private staffSearch(builder: Knex.QueryBuilder, q?: string): Knex.QueryBuilder {
    return q?.trim() ? builder.whereRaw(...propertyMatches("properties", q)) : builder;
  }

  /** Every property searchProperties would page through, in its order, a batch at a time (CSV export). */
  exportProperties(query: { q?: string }): AsyncGenerator<Property[]> {
    const rows = this.staffSearch(this.db("properties"), query.q).orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ]);
    return cursorBatches(this.db, rows, toProperty);
  }

  /**
   * Many customers, each with one property, in two multi-row inserts (the demo seed at 100,000
   * properties). Rows come back in input order: Postgres returns a multi-row insert's rows in order.
   */
  async insertMany(
    rows: { customer: NewCustomer; property: NewProperty; createdAt: Date }[],
    tx: Tx | Knex = this.db,
  ): Promise<{ customerId: number; propertyId: number }[]> {
    if (!rows.length) return [];
    const customers = await tx("customers")
      .insert(
        rows.map(({ customer: c, createdAt }) => ({
          email: c.email,
          name: c.name,
          phone: c.phone ?? null,
          subscription_plan: c.subscriptionPlan,
          stripe_session_id: c.stripeSessionId ?? null,
          created_at: createdAt,
          updated_at: createdAt,
        })),
      )
      .returning("id");
    const properties = await tx("properties")
      .insert(
        rows.map(({ customer: c, property, createdAt }, i) => {
          const row: Row = {
            customer_id: customers[i].id,
            client_name: c.name,
            client_email: c.email,
            client_phone: c.phone ?? null,
            subscription_plan: c.subscriptionPlan,
            created_at: createdAt,
            updated_at: createdAt,
          };
          for (const [key, column] of Object.entries(PROPERTY_COLUMNS))
            row[column] = property[key as keyof NewProperty] ?? null;
          return row;
        }),
      )
      .returning("id");
    return rows.map((_, i) => ({ customerId: customers[i].id as number, propertyId: properties[i].id as number }));
  }

  /** Properties, oldest first, so "the last one" is the newest; optionally only some customers'. */
  async listProperties(customerIds?: number[], tx: Tx | Knex = this.db): Promise<Property[]> {
    const query = tx("properties").orderBy([{ column: "created_at" }, { column: "id" }]);
    if (customerIds) query.whereIn("customer_id", customerIds);
    return (await query).map(toProperty);
  }
}
