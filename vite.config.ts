import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { inspectionServiceWorker } from "./islands/inspections/service-worker.config";

/**
 * Vite wraps every dynamic import in its preload helper (about 0.9 KB gzip, a chunk of its own on every island page)
 * even with modulePreload off, when all it still does is add the CSS a lazy chunk imports. No lazy chunk imports CSS
 * (the stylesheet is an entry the server links), so the helper becomes a plain call; a lazy chunk that one day imports
 * CSS fails the build instead of losing its styles (docs/decisions.md#79).
 */
function plainDynamicImports(): Plugin {
  return {
    name: "haven:plain-dynamic-imports",
    apply: "build",
    transform: {
      filter: { id: /^\0vite\/preload-helper\.js$/ },
      handler: () => ({ code: "export const __vitePreload = (load) => load();", map: null }),
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === "chunk" && !chunk.isEntry && chunk.viteMetadata?.importedCss.size)
          this.error(`${chunk.fileName} imports CSS: put it in islands/styles, which the server links`);
    },
  };
}

// Builds the island loader, the tiny marketing script and the stylesheet into dist/public,
// with a manifest the server reads to link the hashed files.
export default defineConfig({
  // The inspection form works offline: a Workbox service worker keeps its code (docs/decisions.md#18).
  plugins: [react(), tailwindcss(), plainDynamicImports(), inspectionServiceWorker("dist/public")],
  publicDir: "public",
  // Islands get their messages parsed by the server (src/i18n/catalogue.ts islandMessages): the ICU parser stays out of
  // the bundles, as FormatJS documents (docs/decisions.md#64).
  resolve: {
    // The package exports "./no-parser.js" only; an exact match, so the subpath itself is not aliased again.
    alias: [
      {
        find: /^@formatjs\/icu-messageformat-parser$/,
        replacement: "@formatjs/icu-messageformat-parser/no-parser.js",
      },
    ],
  },
  build: {
    outDir: "dist/public",
    // Keep earlier hashed files: a server still running on the old manifest can serve them.
    emptyOutDir: false,
    manifest: true,
    // No preload lists in the island loader (about 1.3 KB gzip): a lazy island chunk fetches its own
    // imports, and pages that cannot wait for that preload them from the server (views/inspections/form.ejs).
    modulePreload: false,
    sourcemap: false,
    target: "es2022",
    rollupOptions: {
      // The passkey scripts (My Home's, staff's) are loaded only by the pages that show passkey controls, and the plan
      // buttons only by /pricing (site.ts is on every page, staff and My Home too).
      input: [
        "islands/main.ts",
        "islands/site.ts",
        "islands/admin.ts",
        "islands/my-home/passkeys.ts",
        "islands/auth/passkeys.ts",
        "islands/checkout/plan-buttons.ts",
        "islands/styles/app.css",
      ],
    },
  },
});
