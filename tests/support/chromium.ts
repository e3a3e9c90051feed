import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/**
 * CHROME_PATH, then Debian's Chromium (its headless shell first), then a browser Playwright downloaded itself. The
 * headless shell is the same Chromium built for headless use, as Playwright itself runs headless tests: it starts
 * and renders with less work than the full browser's headless mode (docs/architecture.md, "The suite's time").
 */
export function findChromium(): string | null {
  const candidates = [
    process.env.CHROME_PATH,
    "/usr/bin/chromium-headless-shell",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
  ];
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

/** A Chromium of its own (the browser tests share one per worker instead: sharedChromium). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(NO_CHROMIUM_MESSAGE);
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}

// The worker's Chromium lives on globalThis, not in this module: the browser project runs its files one after
// another in each worker process (isolate: false), and tests/browser/environment.ts, which closes it when the
// worker stops, is loaded by a module loader of its own, so it has its own copy of this module.
const SHARED = Symbol.for("haven.tests.sharedChromium");
const holder = globalThis as { [SHARED]?: Promise<Browser> };

// WebAuthn refuses an IP address as the relying party, so the sign-in tests browse http://localhost:PORT while
// the test servers listen on 127.0.0.1 only: never let Chromium try ::1 first.
const SHARED_ARGS = ["--host-resolver-rules=MAP localhost 127.0.0.1"];

/**
 * This worker's Chromium, launched by the first test file that asks for it and kept for the next ones. Test files
 * take it through openBrowser() (tests/support/browser.ts), which closes their own contexts; a crashed Chromium
 * is launched again for the next file.
 */
export function sharedChromium(): Promise<Browser> {
  let launching = holder[SHARED];
  if (!launching) {
    launching = launchBrowser(SHARED_ARGS);
    holder[SHARED] = launching;
    const forget = () => {
      if (holder[SHARED] === launching) delete holder[SHARED];
    };
    launching.then((browser) => browser.on("disconnected", forget), forget);
  }
  return launching;
}

/** The worker's Chromium if one was launched and still runs, else null (never launches one). */
export async function runningSharedChromium(): Promise<Browser | null> {
  const browser = await holder[SHARED]?.catch(() => null);
  return browser?.isConnected() ? browser : null;
}

/** Closes the worker's Chromium, if any: when the worker stops (tests/browser/environment.ts). */
export async function closeSharedChromium(): Promise<void> {
  const browser = await runningSharedChromium();
  delete holder[SHARED];
  await browser?.close();
}

/** Closes every context still open on the worker's Chromium: after each browser test file (tests/browser/setup.ts). */
export async function closeLeftoverContexts(): Promise<void> {
  const browser = await runningSharedChromium();
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close().catch(() => undefined)));
}
