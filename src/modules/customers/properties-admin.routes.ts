import { Router } from "express";
import { z } from "zod";
import type { Container } from "../../container.js";
import { idParams } from "../../http/fields.js";
import { staffPage } from "../../http/admin.js";
import { NotFoundError } from "../../http/errors.js";
import { params } from "../../http/validate.js";
import type { Booking } from "../bookings/bookings.schemas.js";
import { SUBSCRIPTION_PLANS, planLabel } from "./customers.schemas.js";

/** Cards per page of /admin/properties: a phone scrolls through it, a desktop shows it in two columns. */
export const PROPERTIES_PAGE_SIZE = 20;

const pageQuery = z.object({
  q: z.string().trim().max(200).catch("").default(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/** What a property card shows of its bookings: the latest one, matched by propertyId, or none. */
const inspectionOf = (bookings: Booking[] | undefined) => {
  const latest = bookings?.[0];
  return latest ? { date: latest.scheduledDate, status: latest.status, timeSlot: latest.timeSlot } : null;
};

const planBadge = (plan: string) => ((SUBSCRIPTION_PLANS as readonly string[]).includes(plan) ? plan : "unknown");

/**
 * Customer properties for staff (staff-side §2): /admin/properties and /admin/properties-simple, a page
 * of 20 cards with search and pagination on the server; htmx swaps only the results, and every link
 * also works as a plain page. /admin/properties/{id} holds the details (the dialog's content).
 */
export function propertiesAdminPages(container: Container): Router {
  const router = Router();

  router.get(["/admin/properties", "/admin/properties-simple"], ...staffPage(container), async (req, res) => {
    const { q, page } = pageQuery.parse(req.query);
    const offset = (page - 1) * PROPERTIES_PAGE_SIZE;
    const { rows, total } = await container.customers.searchProperties({ q: q || undefined, limit: PROPERTIES_PAGE_SIZE, offset });
    const bookings = await container.bookings.byProperty(rows.map((p) => p.id));
    const cards = rows.map((property) => ({ property, inspection: inspectionOf(bookings.get(property.id)), plan: planBadge(property.subscriptionPlan), planLabel: planLabel(property.subscriptionPlan) }));
    const pages = Math.max(1, Math.ceil(total / PROPERTIES_PAGE_SIZE));
    const locals = { title: "Customer Properties", admin: "properties", noindex: true, timeZone: container.env.BUSINESS_TZ, q, page, pages, total, cards, pageSize: PROPERTIES_PAGE_SIZE, basePath: req.path };
    // The refresh button, the search and the pager replace only the results.
    if (req.get("hx-target") === "property-results") return res.page("properties/_results", locals);
    res.page("properties/index", locals);
  });

  router.get("/admin/properties/:id", ...staffPage(container), async (req, res) => {
    const { id } = params(req, idParams);
    const property = await container.customers.findPropertyFor({ kind: "staff" }, id);
    if (!property) throw new NotFoundError("Property not found");
    const bookings = (await container.bookings.byProperty([id])).get(id) ?? [];
    const locals = { title: `${property.address} | Customer Properties`, admin: "properties", noindex: true, timeZone: container.env.BUSINESS_TZ, property, bookings, plan: planBadge(property.subscriptionPlan), planLabel: planLabel(property.subscriptionPlan) };
    // In the dialog: the details alone; as a page (no script, or a shared link): inside the shell.
    res.page(req.get("hx-request") === "true" ? "properties/_details" : "properties/details", locals);
  });

  return router;
}
