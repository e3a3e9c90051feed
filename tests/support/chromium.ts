import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** CHROME_PATH, then Debian's /usr/bin/chromium, then a browser Playwright downloaded itself. */
export function findChromium(): string | null {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    // Playwright has no browser of its own here.
  }
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate))) ?? null;
}

export const NO_CHROMIUM_MESSAGE =
  "No Chromium found for the browser tests. Install it with `apt-get install -y chromium` (Debian) or set CHROME_PATH to a Chromium or Chrome binary.";

// Flags for a machine with no network: without them Chromium keeps dialling Google's services.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(NO_CHROMIUM_MESSAGE);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

