import type { RequestHandler, Router } from "express";
import { z } from "zod";
import { idParams } from "../../http/fields.js";
import { NotFoundError, ValidationError } from "../../http/errors.js";
import { params, parse } from "../../http/validate.js";
import type { CustomersService } from "./customers.service.js";
import {
  BATHROOMS_FORM,
  BEDROOMS_FORM,
  COOLING_TYPES,
  ELECTRICAL_PANELS,
  HEATING_TYPES,
  HVAC_UNITS,
  PROVINCES,
  PROVINCE_NAMES,
  type Property,
  ROOF_TYPES,
  STORIES,
  SUBSCRIPTION_PLANS,
  US_STATES,
  US_STATE_NAMES,
  WATER_HEATER_TYPES,
  planLabel,
  propertyEditSchema,
} from "./customers.schemas.js";
import { createRouter } from "../../http/router.js";

/** Cards per page of /admin/properties: a phone scrolls through it, a desktop shows it in two columns. */
export const PROPERTIES_PAGE_SIZE = 20;

const pageQuery = z.object({
  q: z.string().trim().max(200).catch("").default(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/** What a property card shows of its bookings: the latest one, matched by propertyId, or none. */
const inspectionOf = (bookings: PropertyBooking[] | undefined) => {
  const latest = bookings?.[0];
  return latest ? { date: latest.scheduledDate, status: latest.status, timeSlot: latest.timeSlot } : null;
};

const planBadge = (plan: string) => ((SUBSCRIPTION_PLANS as readonly string[]).includes(plan) ? plan : "unknown");

/** What a property's card and details show of one booking (the bookings module's Booking has these and more). */
export interface PropertyBooking {
  scheduledDate: string;
  timeSlot: string;
  status: string;
}

/**
 * What the property admin pages use; src/app.ts passes them. Bookings, subscriptions and My Home sit in
 * layers above customers, so what the pages show of them arrives as functions (docs/architecture.md
 * "Modules and layers").
 */
export interface PropertiesAdminDeps {
  customers: CustomersService;
  /** Each property's bookings, newest first (BookingsService.byProperty). */
  bookingsByProperty: (propertyIds: number[]) => Promise<Map<number, PropertyBooking[]>>;
  /** The details dialog's subscription panel: what views/properties/_details.ejs renders, or null (the subscriptions module's). */
  subscriptionOf: (propertyId: number) => Promise<unknown>;
  /** Which of these properties have a failed plan payment (their cards show a badge). */
  pastDueOf: (propertyIds: number[]) => Promise<Set<number>>;
  /** When the customer last signed in to My Home, or null. */
  homeLastSignedIn: (email: string) => Promise<Date | null>;
  timeZone: string;
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
}

/**
 * Customer properties for staff (staff-side §2): /admin/properties and /admin/properties-simple, a page
 * of 20 cards with search and pagination on the server; htmx swaps only the results, and every link
 * also works as a plain page. /admin/properties/{id} holds the details (the dialog's content).
 */
export function propertiesAdminPages(deps: PropertiesAdminDeps): Router {
  const router = createRouter();
  // The details, and the edit form of the details dialog (the same rules as PATCH /api/properties/{id}).
  const editLocals = (property: Property, values: Record<string, unknown>, errors: Record<string, string>) => ({
    title: `Edit ${property.address} | Customer Properties`,
    admin: "properties",
    noindex: true,
    property,
    values,
    errors,
    options: EDIT_OPTIONS,
  });
  const detailsLocals = async (property: Property, notice?: { variant: "success" | "error"; title: string }) => ({
    title: `${property.address} | Customer Properties`,
    admin: "properties",
    noindex: true,
    timeZone: deps.timeZone,
    property,
    notice,
    bookings: (await deps.bookingsByProperty([property.id])).get(property.id) ?? [],
    plan: planBadge(property.subscriptionPlan),
    planLabel: planLabel(property.subscriptionPlan),
    // The subscription and its invoices.
    subscription: await deps.subscriptionOf(property.id),
    // When the customer last signed in to My Home.
    homeLastSignedIn: await deps.homeLastSignedIn(property.clientEmail),
  });

  router.get(["/admin/properties", "/admin/properties-simple"], ...deps.staffPage, async (req, res) => {
    const { q, page } = pageQuery.parse(req.query);
    const offset = (page - 1) * PROPERTIES_PAGE_SIZE;
    const { rows, total } = await deps.customers.searchProperties({
      q: q || undefined,
      limit: PROPERTIES_PAGE_SIZE,
      offset,
    });
    const [bookings, pastDue] = await Promise.all([
      deps.bookingsByProperty(rows.map((p) => p.id)),
      deps.pastDueOf(rows.map((p) => p.id)),
    ]);
    const cards = rows.map((property) => ({
      property,
      inspection: inspectionOf(bookings.get(property.id)),
      plan: planBadge(property.subscriptionPlan),
      planLabel: planLabel(property.subscriptionPlan),
      pastDue: pastDue.has(property.id),
    }));
    const pages = Math.max(1, Math.ceil(total / PROPERTIES_PAGE_SIZE));
    const locals = {
      title: "Customer Properties",
      admin: "properties",
      noindex: true,
      timeZone: deps.timeZone,
      q,
      page,
      pages,
      total,
      cards,
      pageSize: PROPERTIES_PAGE_SIZE,
      basePath: req.path,
    };
    // The refresh button, the search and the pager replace only the results.
    if (req.get("hx-target") === "property-results") return res.page("properties/_results", locals);
    res.page("properties/index", locals);
  });

  router.get("/admin/properties/:id", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const property = await deps.customers.findPropertyFor({ kind: "staff" }, id);
    if (!property) throw new NotFoundError("Property not found");
    const locals = await detailsLocals(property, req.query.saved === "1" ? SAVED_NOTICE : undefined);
    // In the dialog: the details alone; as a page (no script, or a shared link): inside the shell.
    res.page(req.get("hx-request") === "true" ? "properties/_details" : "properties/details", locals);
  });

  router.get("/admin/properties/:id/edit", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const property = await deps.customers.findPropertyFor({ kind: "staff" }, id);
    if (!property) throw new NotFoundError("Property not found");
    res.page(
      req.get("hx-request") === "true" ? "properties/_edit" : "properties/edit",
      editLocals(property, editValues(property), {}),
    );
  });

  router.post("/admin/properties/:id", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const property = await deps.customers.findPropertyFor({ kind: "staff" }, id);
    if (!property) throw new NotFoundError("Property not found");
    const fragment = req.get("hx-request") === "true";
    let saved: Property;
    try {
      saved = await deps.customers.editProperty(id, parse(propertyEditSchema, req.body ?? {}));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // The form again, as typed, with each refusal under its field (200 for htmx, which swaps only 2xx);
      // no scroll to the top: the first refused field takes the focus (autofocus).
      if (fragment) res.set("HX-Reswap", "outerHTML");
      const typed = typeof req.body === "object" && req.body ? (req.body as Record<string, unknown>) : {};
      return res
        .status(fragment ? 200 : 400)
        .page(
          fragment ? "properties/_edit" : "properties/edit",
          editLocals(property, typed, editErrors(error.fields ?? {})),
        );
    }
    if (!fragment) return res.redirect(303, `/admin/properties/${id}?saved=1`);
    res.page("properties/_details", await detailsLocals(saved, SAVED_NOTICE));
  });

  return router;
}

const SAVED_NOTICE = { variant: "success" as const, title: "Details saved" };

/** The choices of the edit form's selects: the intake's. */
const EDIT_OPTIONS = {
  provinces: PROVINCES.map((code) => ({ value: code, label: PROVINCE_NAMES[code] })),
  states: US_STATES.map((code) => ({ value: code, label: US_STATE_NAMES[code] })),
  bedrooms: BEDROOMS_FORM,
  bathrooms: BATHROOMS_FORM,
  stories: STORIES,
  hvacUnits: HVAC_UNITS,
  electricalPanels: ELECTRICAL_PANELS,
  roofType: ROOF_TYPES,
  heatingType: HEATING_TYPES,
  coolingType: COOLING_TYPES,
  waterHeaterType: WATER_HEATER_TYPES,
};

/** The form's values for a stored property: the customer's fields, and one region and one postal code. */
const editValues = (p: Property): Record<string, unknown> => ({
  ...p,
  name: p.clientName,
  email: p.clientEmail,
  phone: p.clientPhone,
  state: p.province || p.state,
  zipCode: p.postalCode,
});

/** The form names the region `state` and the postal code `zipCode`; the schema may name the other pair too. */
const editErrors = (fields: Record<string, string>) => {
  const errors = { ...fields };
  errors.state ??= fields.province ?? "";
  errors.zipCode ??= fields.postalCode ?? "";
  for (const key of ["state", "zipCode"]) if (!errors[key]) delete errors[key];
  return errors;
};
