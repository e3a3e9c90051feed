// My Home's routes (src/modules/my-home/README.md): the homeowner's sign-in, visits, plan, invoices, account and
// records, as one API router (under /api) and one pages router, in the order app.ts mounts them.
import type { RequestHandler, Router } from "express";
import { createRouter } from "../../http/router.js";
import { accountApi, accountPages } from "./account.routes.js";
import type { HomeAccess } from "./home-access.js";
import type { HomeAuthService } from "./home-auth.service.js";
import { homeSignInApi, homeSignInPages } from "./home-sign-in.routes.js";
import { homeInvoicesRoutes } from "./invoices.routes.js";
import { type PlanRoutesDeps, planApi, planPages } from "./plan.routes.js";
import type { RecordsService } from "./records.service.js";
import { myHomeRecordsApi, myHomeRecordsPages } from "./records.routes.js";
import type { VisitsService } from "./visits.service.js";
import { visitsApi, visitsPages } from "./visits.routes.js";

export interface MyHomeRoutesDeps {
  homeAuth: HomeAuthService;
  visits: VisitsService;
  records: RecordsService;
  /** The homeowner's language (Account page). */
  homeAccess: Pick<HomeAccess, "localeOf" | "setLocale">;
  planPage: PlanRoutesDeps["planPage"];
  /** http/admin.ts staffPage(): staff's 'Send sign-in link' form. */
  staffPage: RequestHandler[];
  /** The `haven_home` cookie is Secure in production; the rest as the Plan page needs it. */
  settings: PlanRoutesDeps["settings"] & { secure: boolean };
}

export function myHomeRoutes(deps: MyHomeRoutesDeps): { api: Router; pages: Router } {
  const { homeAuth, visits, records, homeAccess, planPage, staffPage, settings } = deps;
  const signIn = { homeAuth, staffPage, settings };
  const plan = { planPage, settings };
  const account = { visits, homeAuth, language: homeAccess, settings };
  const invoices = homeInvoicesRoutes({ planPage });
  const api = createRouter();
  api.use(homeSignInApi(signIn));
  api.use(visitsApi({ visits }));
  api.use(planApi(plan));
  api.use(invoices.api);
  api.use(accountApi(account));
  api.use(myHomeRecordsApi({ records }));
  const pages = createRouter();
  pages.use(homeSignInPages(signIn));
  pages.use(visitsPages({ visits }));
  pages.use(invoices.pages);
  pages.use(planPages(plan));
  pages.use(accountPages(account));
  pages.use(myHomeRecordsPages({ records }));
  return { api, pages };
}
