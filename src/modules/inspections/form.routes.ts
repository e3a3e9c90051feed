import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Router } from "express";
import type { Container } from "../../container.js";
import { staffPage } from "../../http/admin.js";
import { PUBLIC_BUILD_DIR } from "../../http/assets.js";
import { params } from "../../http/validate.js";
import { inspectionIdParams } from "./inspections.schemas.js";

export interface InspectionFormProps {
  mode: "new" | "edit";
  inspectionId: number | null;
}

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

/** The inspection form pages (staff-side §2): one island, offline first (DESIGN.md decision 18). */
export function inspectionFormPages(container: Container): Router {
  const router = Router();

  router.get("/admin/inspections/new", ...staffPage(container), (_req, res) => {
    const props: InspectionFormProps = { mode: "new", inspectionId: null };
    res.page("inspections/form", { title: "New Property Inspection", admin: "inspections", islands: true, noindex: true, props });
  });

  // The island loads the inspection itself (and from IndexedDB when offline), so this page holds no
  // inspection data: the service worker can keep it as is.
  router.get("/admin/inspections/edit/:id", ...staffPage(container), (req, res) => {
    const { id } = params(req, inspectionIdParams);
    const props: InspectionFormProps = { mode: "edit", inspectionId: id };
    res.page("inspections/form", { title: `Inspection #${id}`, admin: "inspections", islands: true, noindex: true, props, preload: editorPreload() });
  });
  return router;
}
