import type { Router } from "express";
import { firstProblem, parse } from "../../http/validate.js";
import { rememberCustomer, submissionOf, viewerOf } from "../../http/viewer.js";
import * as enums from "../customers/customers.schemas.js";
import type { IdempotencyService } from "../../db/idempotency.js";
import { type BookingsService, SlotTakenError } from "../bookings/index.js";
import type { OnboardingOptions } from "./onboarding.constants.js";
import type { OnboardingService } from "./onboarding.service.js";
import { missingFields, onboardingSchema } from "./onboarding.schemas.js";
import { createRouter } from "../../http/router.js";
import { SaidRefusal } from "../../http/errors.js";
import { type Translator, islandMessages, listText, localePath, translator } from "../../i18n/index.js";
import { apiLocale } from "../../i18n/api-locale.js";
import { serverMessage } from "../../i18n/server-messages.js";
import { DAY_PART_VALUES } from "../../shared/business-time.js";

/** The enumerations the wizard offers, passed as props so the island does not pull zod in. */
const OPTIONS: OnboardingOptions = {
  provinces: enums.PROVINCES,
  bedrooms: enums.BEDROOMS_ONBOARDING,
  bathrooms: enums.BATHROOMS_ONBOARDING,
  garageTypes: enums.GARAGE_TYPES,
  basementStatuses: enums.BASEMENT_STATUSES,
  ownershipTypes: enums.OWNERSHIP_TYPES,
  householdIncomes: enums.HOUSEHOLD_INCOMES,
  occupations: enums.OCCUPATIONS,
  householdSizes: enums.HOUSEHOLD_SIZES,
};

/** "Please fill in all required fields: Email and City" / "… obligatoires : Courriel et Ville". */
const missingMessage = (t: Translator, missing: string[]) =>
  t("errors.api.onboarding.missing", {
    fields: listText(
      t.locale,
      missing.map((field) => t(`onboarding.field.${field}`)),
    ),
  });

/** What the onboarding routes use; src/app.ts passes them (docs/architecture.md "Modules and layers"). */
export interface OnboardingRoutesDeps {
  onboarding: OnboardingService;
  /** The booking calendar (open dates) the wizard offers and checks. */
  bookings: Pick<BookingsService, "calendar">;
  idempotency: IdempotencyService;
}

export function onboardingApi(deps: OnboardingRoutesDeps): Router {
  const router = createRouter();

  router.post("/onboarding", async (req, res) => {
    const payload = (req.body && typeof req.body === "object" && !Array.isArray(req.body) ? req.body : {}) as Record<
      string,
      unknown
    >;
    const input = parse(onboardingSchema(deps.bookings.calendar()), payload, (fields) => {
      // Missing fields are named all at once (reading A's alert), by their form labels in the language the page
      // asked in (docs/decisions.md#78); otherwise the first problem leads.
      const missing = missingFields(payload);
      if (missing.length) throw new SaidRefusal(400, missingMessage(translator(apiLocale(req)), missing), fields);
      return firstProblem(fields);
    });
    const outcome = await deps.idempotency
      .run("onboarding", submissionOf(req, { ...payload, completedAt: undefined }), (tx) =>
        deps.onboarding.submit(input, tx, viewerOf(req)),
      )
      .catch((error: unknown) => {
        if (error instanceof SlotTakenError) return error;
        throw error;
      });
    // A time taken meanwhile: the wizard's 409, on onboarding's field, with fresh times (docs/decisions.md#37).
    if (outcome instanceof SlotTakenError) {
      const message = serverMessage(translator(apiLocale(req)), outcome.message);
      res.status(409).json({
        message,
        fields: { preferredTime: message },
        availability: outcome.availability,
      });
      return;
    }
    const { result: submitted, replayed, byBrowserKey } = outcome;
    const { customerId, ...result } = submitted;
    // A replay found by the payload alone could come from another browser: it grants no access.
    if (!replayed || byBrowserKey) await rememberCustomer(req, customerId);
    res.status(201).json(result);
  });

  return router;
}

export function onboardingPages(deps: OnboardingRoutesDeps): Router {
  const router = createRouter();
  // Two routes, one wizard (docs/decisions.md#13).
  router.get(["/onboarding", "/onboarding-flow"], (req, res) => {
    const { minDate, maxDate } = deps.bookings.calendar();
    const t = translator(req.locale);
    res.page("onboarding/onboarding", {
      title: t("onboarding.title"),
      description: t("onboarding.description"),
      islands: true,
      props: {
        minDate,
        maxDate,
        options: OPTIONS,
        i18n: islandMessages(req.locale, "forms", "onboarding"),
        // Words other namespaces own (decision 41: one name each), passed ready so the island loads only its own.
        provinceNames: Object.fromEntries(OPTIONS.provinces.map((p) => [p, t(`intake.province.${p}`)])),
        dayParts: Object.fromEntries(
          DAY_PART_VALUES.map((p) => [p, { label: t(`booking.book.part.${p}`), range: t(`booking.book.range.${p}`) }]),
        ),
        homeHref: localePath("/", req.locale),
      },
    });
  });
  return router;
}
