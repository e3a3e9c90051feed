import type { Response, Router } from "express";
import { z } from "zod";
import { pathId } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { GoneError } from "../../http/errors.js";
import { body, params, query } from "../../http/validate.js";
import { staffListQuerySchema } from "../customers/customers.schemas.js";
import { GONE_MESSAGE, bindingCookies, setBindingCookie } from "../../shared/one-time-links.js";
import type { SharingService } from "./sharing.service.js";
import { idParamsSchema, responsesInputSchema, shareInputSchema } from "./sharing.schemas.js";
import { createRouter } from "../../http/router.js";
import { type Translator, islandMessages, localePath } from "../../i18n/index.js";
import { apiLocale } from "../../i18n/api-locale.js";

/** What sharing's routes use: its service and two settings. */
export interface SharingRoutesDeps {
  sharing: SharingService;
  settings: {
    /** The binding cookie is Secure in production. */
    secure: boolean;
    /** The site's public origin (publicOrigin(env)): new links are made under it. */
    publicUrl: string;
  };
}

const tokenParams = z.object({ token: z.string().max(200) });
const photoParams = z.object({ token: z.string().max(200), photoId: pathId("Photo id") });

/** The link's page in both languages and its API: the only paths its binding cookie is sent to. */
const linkPaths = (token: string) => [
  `/client-report/${token}`,
  localePath(`/client-report/${token}`, "fr-CA"),
  `/api/client-report/${token}`,
];

/** Nothing of a link's answers is kept by a cache, and no Referer carries the token onwards. */
const privateLink = (res: Response) => {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
};

export function sharingApi(deps: SharingRoutesDeps): Router {
  const router = createRouter();
  const { sharing, settings } = deps;

  // Staff: a new one-time link for the client, e-mailed with the summary PDF (staff-side §2 share dialog).
  router.post("/reports/:id/share", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParamsSchema);
    const { clientEmail } = body(req, shareInputSchema);
    const { reportLink } = await sharing.share(id, clientEmail, settings.publicUrl);
    res.status(201).json({ reportLink, testLink: reportLink });
  });

  router.get("/client-report-shares", requireStaffApi, async (req, res) => {
    const { limit, offset, q } = query(req, staffListQuerySchema);
    const { rows, total } = await sharing.list({ limit, offset, q });
    res.setHeader("X-Total-Count", String(total));
    res.json(rows);
  });

  // The client (no login): the first view claims the link for this browser; every other one gets 410.
  router.get("/client-report/:token", async (req, res) => {
    privateLink(res);
    const { token } = params(req, tokenParams);
    const opened = await sharing.clientReport(token, bindingCookies(req), apiLocale(req));
    if ("gone" in opened) throw new GoneError(GONE_MESSAGE);
    if (opened.binding)
      setBindingCookie(
        res,
        opened.binding,
        linkPaths(token),
        new Date(opened.payload.share.expiresAt),
        settings.secure,
      );
    res.json(opened.payload);
  });

  router.post("/client-report/:token/responses", async (req, res) => {
    privateLink(res);
    const { token } = params(req, tokenParams);
    const { responses } = body(req, responsesInputSchema, (fields) => Object.values(fields)[0] ?? "Invalid input");
    const result = await sharing.respond(token, bindingCookies(req), responses);
    if ("gone" in result) throw new GoneError(GONE_MESSAGE);
    res.status(201).json(result);
  });

  // Photos of the shared report, under the link (never the staff-only /api/photos URLs).
  router.get("/client-report/:token/photos/:photoId", async (req, res) => {
    privateLink(res);
    const { token, photoId } = params(req, photoParams);
    const photo = await sharing.photo(token, bindingCookies(req), photoId);
    if ("gone" in photo) throw new GoneError(GONE_MESSAGE);
    res.type(photo.mimeType).send(photo.bytes);
  });

  return router;
}

/** The expired page's title, as /report-expired has it, in the page's language. */
const reportExpiredMeta = (t: Translator) => ({
  title: t("marketing.expired.meta.title"),
  description: t("marketing.expired.meta.description"),
  noindex: true,
});

export function sharingPages(deps: Pick<SharingRoutesDeps, "sharing">): Router {
  const router = createRouter();
  const { sharing } = deps;

  // A one-time link, or the marketing sample's fixed id: the same island shows both.
  router.get("/client-report/:token", async (req, res, next) => {
    const token = req.params.token;
    const access = await sharing.pageAccess(token, bindingCookies(req));
    if (access === "malformed") return next();
    privateLink(res);
    if (access === "gone") return res.redirect(303, "/report-expired");
    // A paying customer's used link: the same page, leading to My Home instead of the pricing page (docs/decisions.md#28).
    if (access === "gone-member")
      return res.status(410).page("pages/report-expired", { ...reportExpiredMeta(res.locals.t), member: true });
    const sample = access === "sample";
    const t = res.locals.t as Translator;
    // The island's own messages and the scoring names it shows (docs/decisions.md#64).
    const i18n = islandMessages(res.locals.locale, "report", "scoring");
    res.page("sharing/client-report", {
      title: sample ? t("report.meta.sampleTitle") : t("report.title"),
      description: sample ? t("report.meta.sampleDescription") : t("report.meta.description"),
      noindex: true,
      islands: true,
      props: sample ? { token, sample, i18n } : { token, i18n },
    });
  });

  return router;
}
