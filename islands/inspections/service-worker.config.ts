// Build-time (Node) configuration of the inspection form's service worker: vite-plugin-pwa with Workbox
// (docs/decisions.md#18). vite.config.ts adds the plugin; the worker's code is inspections-sw.ts. It is
// served as /inspections-sw.js and scoped to /admin/inspections/ by islands/inspections/offline.ts.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { VitePWA } from "vite-plugin-pwa";

interface ManifestChunk {
  file: string;
  css?: string[];
  assets?: string[];
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * The built files the form needs, from Vite's manifest: the loader (with the toaster and its viewport), the styles, the
 * form island with everything they import, and the form's own lazy chunks (the photo viewer, the sync engine, the
 * completion dialog, the door code). Old hashed
 * files stay in dist/public (emptyOutDir is off) and other islands are not the form's: neither is precached.
 */
export function formFiles(outDir: string): Set<string> | null {
  const file = path.join(outDir, ".vite/manifest.json");
  if (!existsSync(file)) return null;
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, ManifestChunk>;
  const keep = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    keep.add(chunk.file);
    for (const f of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) keep.add(f);
    for (const k of chunk.imports ?? []) visit(k);
    // The form's own lazy chunks, the toasts' viewport (the loader fetches it with a page's first toast) and the admin
    // shell's script that site.ts loads on /admin pages.
    for (const k of chunk.dynamicImports ?? [])
      if (k.startsWith("islands/inspections/") || k.startsWith("islands/site/") || k.startsWith("islands/ui/"))
        visit(k);
  };
  for (const entry of [
    "islands/main.ts",
    "islands/site.ts",
    "islands/admin.ts",
    "islands/styles/app.css",
    "islands/inspections/InspectionForm.island.tsx",
  ])
    visit(entry);
  return keep;
}

export function inspectionServiceWorker(outDir: string) {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "islands/inspections",
    filename: "inspections-sw.ts",
    scope: "/admin/inspections/",
    injectRegister: false,
    manifest: false,
    injectManifest: {
      // A classic worker, registered by islands/inspections/offline.ts.
      rollupFormat: "iife",
      globPatterns: ["assets/**/*.{js,css,woff2,svg}"],
      manifestTransforms: [
        async (entries) => {
          const keep = formFiles(outDir);
          return { manifest: keep ? entries.filter((e) => keep.has(e.url.replace(/^\//, ""))) : entries, warnings: [] };
        },
      ],
      // Hashed names: the revision is in the name already.
      dontCacheBustURLsMatching: /^assets\//,
    },
  });
}
