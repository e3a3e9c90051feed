// Runs before `vitest run`: the browser tests need built assets and a Chromium.
import { ensureAssets } from "../../src/build-assets.js";
import { NO_CHROMIUM_MESSAGE, findChromium } from "./chromium.js";

if (!findChromium()) {
  console.error(`npm test: ${NO_CHROMIUM_MESSAGE}`);
  process.exit(1);
}
await ensureAssets((line) => console.log(line));
