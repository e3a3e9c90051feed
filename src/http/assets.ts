import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export const ROOT_DIR = path.resolve(import.meta.dirname, "../..");
export const PUBLIC_BUILD_DIR = path.join(ROOT_DIR, "dist/public");
const MANIFEST = path.join(PUBLIC_BUILD_DIR, ".vite/manifest.json");

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** The entry files Vite builds (vite.config.ts). */
export const ENTRIES = {
  styles: "islands/styles/app.css",
  site: "islands/site.ts",
  islands: "islands/main.ts",
  admin: "islands/admin.ts",
  passkeys: "islands/my-home/passkeys.ts",
  staffPasskeys: "islands/auth/passkeys.ts",
  planButtons: "islands/checkout/plan-buttons.ts",
} as const;

export interface Assets {
  css: string[];
  siteJs: string;
  islandsJs: string;
  /** The admin shell's script (htmx, menu, logout): admin pages only. */
  adminJs: string;
  /** Chunks the island loader imports at once, preloaded to save a round trip. */
  islandsPreload: string[];
  /** My Home's passkey buttons (sign-in page, Account page) only. */
  passkeysJs: string;
  /** Staff passkeys (the two-step page, the login page's second step) only. */
  staffPasskeysJs: string;
  /** /pricing's plan buttons (the postal code, then the checkout session) only. */
  planButtonsJs: string;
}

export class AssetsMissingError extends Error {}

export function loadAssets(): Assets {
  if (!existsSync(MANIFEST)) {
    throw new AssetsMissingError("Built assets are missing: run `npm run build` (npm start does it for you).");
  }
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, ManifestChunk>;
  const entry = (name: string) => {
    const chunk = manifest[name];
    if (!chunk) throw new AssetsMissingError(`Built assets lack ${name}: run \`npm run build\`.`);
    return chunk;
  };
  const styles = entry(ENTRIES.styles);
  const islands = entry(ENTRIES.islands);
  return {
    css: [`/${styles.file}`],
    siteJs: `/${entry(ENTRIES.site).file}`,
    islandsJs: `/${islands.file}`,
    adminJs: `/${entry(ENTRIES.admin).file}`,
    islandsPreload: (islands.imports ?? []).map((key) => `/${manifest[key]?.file}`).filter((f) => f !== "/undefined"),
    passkeysJs: `/${entry(ENTRIES.passkeys).file}`,
    staffPasskeysJs: `/${entry(ENTRIES.staffPasskeys).file}`,
    planButtonsJs: `/${entry(ENTRIES.planButtons).file}`,
  };
}
