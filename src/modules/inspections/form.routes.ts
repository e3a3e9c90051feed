import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { RequestHandler, Router } from "express";
import { PUBLIC_BUILD_DIR } from "../../http/assets.js";
import { params } from "../../http/validate.js";
import { inspectorScopeOf } from "../../http/roles.js";
import { addDays, slotLabel, todayIn } from "../../shared/business-time.js";
import { inspectionIdParams } from "./inspections.schemas.js";
import { type CategoryWeights, INSPECTION_WEIGHTS } from "./template.js";
import { createRouter } from "../../http/router.js";

/** A scheduled booking of today or this week: the property picker lists these first. */
export interface UpcomingProperty {
  id: number;
  address: string;
  city: string;
  province: string | null;
  postalCode: string;
  clientName: string;
  scheduledDate: string;
  timeLabel: string;
}

export interface InspectionFormProps {
  mode: "new" | "edit";
  inspectionId: number | null;
  /** The report of a completed inspection, when there is one (its link replaces 'Generate Report'). */
  reportId?: number | null;
  /** On /new: today's and this week's scheduled bookings, soonest first. */
  upcoming?: UpcomingProperty[];
  /**
   * The template's categories and weights (template.ts), rendered into the page as data rather than bundled with the
   * form's code; the service worker's copy of the page keeps them offline (docs/decisions.md#79).
   */
  categories: CategoryWeights[];
}

/** How many days from today count as 'this week' for the picker. */
export const UPCOMING_DAYS = 6;
const UPCOMING_LIMIT = 12;

const MANIFEST = path.join(PUBLIC_BUILD_DIR, ".vite/manifest.json");
let editorChunks: { mtimeMs: number; files: string[] } | null = null;

/**
 * The built files of the form's editor (a lazy chunk of the island), so the page can preload them with the
 * island loader instead of after it (one round trip less when an inspection opens). Empty without a build.
 */
function editorPreload(): string[] {
  if (!existsSync(MANIFEST)) return [];
  const { mtimeMs } = statSync(MANIFEST);
  if (editorChunks?.mtimeMs !== mtimeMs) {
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, { file: string; imports?: string[] }>;
    const files = new Set<string>();
    for (const key of ["islands/inspections/InspectionForm.island.tsx", "islands/inspections/InspectionEditor.tsx"]) {
      const chunk = manifest[key];
      if (!chunk) continue;
      files.add(`/${chunk.file}`);
      for (const imported of chunk.imports ?? []) if (manifest[imported]) files.add(`/${manifest[imported].file}`);
    }
    editorChunks = { mtimeMs, files: [...files] };
  }
  return editorChunks.files;
}

/** What the new-inspection page reads of one booking (the bookings module's Booking has these and more). */
export interface UpcomingBooking {
  propertyId: number;
  status: string;
  scheduledDate: string;
  timeSlot: string;
  address: string;
  city: string;
  province: string | null;
  postalCode: string | null;
  clientName: string;
  /** The booking's inspector: an inspector is offered only their own (docs/decisions.md#36). */
  inspectorId?: number | null;
}

/**
 * What the inspection form pages use; src/app.ts passes them. Bookings (same layer) and reports (a layer
 * above) are reached through these functions, never imported (docs/architecture.md "Modules and layers").
 */
export interface InspectionFormDeps {
  /** The bookings scheduled between two business dates, inclusive (BookingsService.listBetween). */
  bookingsBetween: (from: string, to: string) => Promise<UpcomingBooking[]>;
  /** The id of the inspection's report, if one was generated (ReportsService.findByInspection). */
  reportIdOf: (inspectionId: number) => Promise<number | null>;
  timeZone: string;
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
}

/** The inspection form pages (staff-side §2): one island, offline first (docs/decisions.md#18). */
export function inspectionFormPages(deps: InspectionFormDeps): Router {
  const router = createRouter();

  router.get("/admin/inspections/new", ...deps.staffPage, async (req, res) => {
    const today = todayIn(deps.timeZone);
    const scope = inspectorScopeOf(req);
    const bookings = (await deps.bookingsBetween(today, addDays(today, UPCOMING_DAYS))).filter(
      (b) => scope === undefined || b.inspectorId === scope,
    );
    const seen = new Set<number>();
    const upcoming: UpcomingProperty[] = [];
    for (const b of bookings) {
      if (b.status !== "scheduled" || seen.has(b.propertyId) || upcoming.length >= UPCOMING_LIMIT) continue;
      seen.add(b.propertyId);
      upcoming.push({
        id: b.propertyId,
        address: b.address,
        city: b.city,
        province: b.province,
        postalCode: b.postalCode ?? "",
        clientName: b.clientName,
        scheduledDate: b.scheduledDate,
        timeLabel:
          b.scheduledDate === today
            ? `Today · ${slotLabel(b.timeSlot)}`
            : `${b.scheduledDate} · ${slotLabel(b.timeSlot)}`,
      });
    }
    const props: InspectionFormProps = { mode: "new", inspectionId: null, upcoming, categories: INSPECTION_WEIGHTS };
    res.page("inspections/form", {
      title: "New Property Inspection",
      admin: "inspections",
      islands: true,
      noindex: true,
      props,
    });
  });

  // The island loads the inspection itself (and from IndexedDB when offline), so this page holds no
  // inspection data (only whether its report exists): the service worker can keep it as is.
  router.get("/admin/inspections/edit/:id", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, inspectionIdParams);
    const reportId = await deps.reportIdOf(id);
    const props: InspectionFormProps = {
      mode: "edit",
      inspectionId: id,
      reportId,
      categories: INSPECTION_WEIGHTS,
    };
    res.page("inspections/form", {
      title: `Inspection #${id}`,
      admin: "inspections",
      islands: true,
      noindex: true,
      props,
      preload: editorPreload(),
    });
  });
  return router;
}
