import type { Router } from "express";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { sendCsv, wantsCsv } from "../../http/csv.js";
import { idParams } from "../../http/fields.js";
import { NotFoundError } from "../../http/errors.js";
import { requireStaffApi } from "../../http/guards.js";
import { inspectorScopeOf } from "../../http/roles.js";
import { body, params, query } from "../../http/validate.js";
import { rememberCustomer, viewerOf } from "../../http/viewer.js";
import { type PlanType, planTypeSchema } from "../plans/plans.schemas.js";
import { customerCreateSchema, propertyEditSchema, staffListQuerySchema } from "./customers.schemas.js";
import type { CustomersService } from "./customers.service.js";
import { createRouter } from "../../http/router.js";
import { islandMessages, localePath, translator } from "../../i18n/index.js";

/**
 * What the customer routes use; src/app.ts passes them. Payments (same layer) and subscriptions (a layer
 * above) are reached through these functions, never imported (docs/architecture.md "Modules and layers").
 */
export interface CustomersRoutesDeps {
  customers: CustomersService;
  transaction: TransactionRunner;
  /** Refuses a checkout that was not paid for this e-mail; else the plan paid for (PaymentsService.requirePaid). */
  requirePaid: (checkoutId: string, email: string) => Promise<{ plan: PlanType | null }>;
  /** Gives the subscription the checkout started to the new customer and home (SubscriptionsService.attachToProperty). */
  attachSubscription: (checkoutId: string, ids: { customerId: number; propertyId: number }, tx: Tx) => Promise<unknown>;
  /**
   * The properties of an inspector's own bookings and inspections (bookings and inspections sit above customers):
   * all an inspector's list shows (docs/decisions.md#36).
   */
  inspectorPropertyIds: (staffUserId: number) => Promise<number[]>;
}

/** What the intake page uses: the demo checkout's customer, who fills the form in demo mode. */
export interface CustomersPagesDeps {
  demoCustomer: { readonly name: string; readonly email: string };
}

export function customersApi(deps: CustomersRoutesDeps): Router {
  const router = createRouter();

  /**
   * Property intake. Only a paid checkout may create a customer, with the e-mail the payment was made
   * with when the provider knows it (PaymentsService.requirePaid). A retry with the same stripeSessionId
   * and e-mail returns the customer made the first time; another e-mail is a 409. Either way this
   * browser's session cookie names the customer only on success (docs/decisions.md#5).
   */
  router.post("/customers", async (req, res) => {
    const input = body(req, customerCreateSchema);
    const { plan } = await deps.requirePaid(input.stripeSessionId, input.email);
    const {
      customer,
      property: saved,
      created,
    } = await deps.transaction(async (tx) => {
      const made = await deps.customers.createWithProperty(
        {
          email: input.email,
          name: input.name,
          phone: input.phone,
          // The plan that was paid for wins over the one the form names.
          subscriptionPlan: plan ?? input.planType,
          stripeSessionId: input.stripeSessionId,
          // The intake page's own language, else the address's (docs/decisions.md#65).
          locale: input.locale ?? req.locale,
        },
        input.property,
        tx,
      );
      // The subscription the checkout started now belongs to this customer and home.
      await deps.attachSubscription(
        input.stripeSessionId,
        { customerId: made.customer.id, propertyId: made.property.id },
        tx,
      );
      return made;
    });
    await rememberCustomer(req, customer.id);
    res.status(created ? 201 : 200).json({ id: customer.id, propertyId: saved.id });
  });

  router.get("/properties", async (req, res) => {
    const viewer = viewerOf(req);
    if (viewer.kind === "staff") {
      if (wantsCsv(req))
        return sendCsv(res, {
          name: "properties",
          batches: deps.customers.exportProperties(query(req, staffListQuerySchema)),
        });
      // Staff: a page, newest first, with the full count (docs/decisions.md#15); an inspector's own homes only.
      const inspectorId = inspectorScopeOf(req);
      const { rows, total } = await deps.customers.searchProperties({
        ...query(req, staffListQuerySchema),
        ...(inspectorId !== undefined && { propertyIds: await deps.inspectorPropertyIds(inspectorId) }),
      });
      res.setHeader("X-Total-Count", String(total));
      return void res.json(rows);
    }
    res.json(await deps.customers.listProperties(viewer));
  });

  router.get("/properties/:id", async (req, res) => {
    const { id } = params(req, idParams);
    const property = await deps.customers.findPropertyFor(viewerOf(req), id);
    if (!property) throw new NotFoundError("Property not found");
    res.json(property);
  });

  /** Staff edit from the details dialog: the intake's field rules, every field optional. */
  router.patch("/properties/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    res.json(await deps.customers.editProperty(id, body(req, propertyEditSchema)));
  });
  return router;
}

const text = (value: unknown) => (typeof value === "string" ? value.trim().slice(0, 200) : "");

export function customersPages(deps: CustomersPagesDeps): Router {
  const router = createRouter();

  // customer-side §2.6: complete parameters are (session_id and plan) or (demo and plan).
  router.get("/property-intake", (req, res) => {
    const plan = planTypeSchema.safeParse(req.query.plan);
    const rawSession = text(req.query.session_id);
    const sessionId = /^[A-Za-z0-9_]+$/.test(rawSession) ? rawSession : "";
    const demo = text(req.query.demo) !== "";
    if (!plan.success || !(sessionId || demo)) return res.redirect("/pricing");
    const customerName = text(req.query.customer_name);
    const customerEmail = text(req.query.customer_email);
    res.page("customers/property-intake", {
      title: translator(req.locale)("intake.title"),
      noindex: true,
      islands: true,
      intakeProps: {
        sessionId,
        plan: plan.data,
        demo,
        customerName: customerName || (demo ? deps.demoCustomer.name : ""),
        customerEmail: customerEmail || (demo ? deps.demoCustomer.email : ""),
        i18n: islandMessages(req.locale, "intake", "forms"),
        paths: {
          pricing: localePath("/pricing", req.locale),
          schedule: localePath("/schedule-inspection", req.locale),
        },
      },
    });
  });
  return router;
}
