// My Home sign-in in a real Chromium at 390 px (docs/decisions.md#28): ask for a link, read it from the e-mail at a
// local SMTP server, continue to My Home; register a passkey with Chromium's virtual authenticator (CDP WebAuthn)
// and sign in with it. axe on the sign-in pages; screenshots at 390 and 1280 px (tests/.screenshots/home-sign-in-*).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Logger, runOnce } from "graphile-worker";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskList } from "../../src/jobs.js";
import { PHONE, expectAccessible, openBrowser, screenshotBothWidths } from "../support/browser.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

const EMAIL = "robin.homeowner@example.com";
const silent = new Logger(() => () => undefined);

let smtp: Smtp;
let ctx: TestContext;
let browser: Browser;
let baseUrl: string;
let server: ReturnType<typeof createServer>;

beforeAll(async () => {
  smtp = await startSmtp();
  // WebAuthn refuses an IP address as the relying party: PUBLIC_URL (and the browser) use the name localhost.
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
  ctx = await createTestContext({ PUBLIC_URL: baseUrl, MAIL_MODE: "smtp", SMTP_URL: smtp.url });
  server.on("request", ctx.app);
  await ctx.container.plans.seed();
  await ctx.container.customers.createWithProperty(
    { email: EMAIL, name: "Robin Homeowner", phone: "613-555-0177", subscriptionPlan: "basic" },
    {
      address: "14 Elgin Street",
      city: "Ottawa",
      province: "ON",
      postalCode: "K1P 5K7",
      squareFootage: 1800,
      yearBuilt: 1975,
    },
  );
  // The worker's Chromium maps localhost to 127.0.0.1 (tests/support/chromium.ts).
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await ctx?.close();
  await smtp?.close();
});

/** Sends the queued e-mails as the worker does, then returns the newest sign-in e-mail's text. */
async function newestSignInMail(): Promise<string> {
  await runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });
  const mails = (await smtp.mails()).filter(
    (m) =>
      m.subject?.startsWith("Your Haven sign-in") &&
      !Array.isArray(m.to) &&
      m.to?.value.some((a) => a.address === EMAIL),
  );
  expect(mails.length).toBeGreaterThan(0);
  return mails.at(-1)!.text ?? "";
}

describe("My Home sign-in at 390 px", () => {
  let page: Page;

  it("signs in from the e-mailed link: the page it opens, then 'Continue to My Home'", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    page = await context.newPage();
    await page.goto(`${baseUrl}/my-home`);
    // Not signed in: the portal sends the homeowner to the sign-in page, and back afterwards.
    await page.waitForURL(/\/my-home\/sign-in\?next=%2Fmy-home$/);
    await page.getByRole("heading", { name: "My Home", level: 1 }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "home-sign-in-form");

    await page.locator("[data-email-form]").getByLabel("E-mail address").fill(EMAIL);
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await page.getByTestId("sign-in-message").waitFor();
    expect(await page.getByTestId("sign-in-message").innerText()).toContain(
      `If ${EMAIL} is a Haven customer, we have sent a sign-in link and code`,
    );
    await expectAccessible(page);
    await screenshotBothWidths(page, "home-sign-in-sent");

    const text = await newestSignInMail();
    const link = /(http:\/\/localhost:\d+\/my-home\/sign-in\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(link, text).toBeTruthy();
    expect(text).toContain(`My Home: ${baseUrl}/my-home`);
    await page.goto(link!);
    await page.getByRole("button", { name: "Continue to My Home" }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "home-sign-in-continue");
    await page.getByRole("button", { name: "Continue to My Home" }).click();
    await page.waitForURL(`${baseUrl}/my-home`);
    const cookie = (await context.cookies()).find((c) => c.name === "haven_home");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    // The link worked once: opening it again says so, with the form to ask again.
    await page.goto(link!);
    expect(await page.getByTestId("sign-in-message").innerText()).toContain("expired or has already been used");
    await expectAccessible(page);
    await screenshotBothWidths(page, "home-sign-in-used");
  });

  it("registers a passkey with the virtual authenticator, then signs in with it and no e-mail", async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await page.goto(`${baseUrl}/my-home/account`);
    const add = page.getByRole("button", { name: "Add a passkey" });
    await add.waitFor();
    await page.getByLabel("Passkey name").fill("Robin's phone");
    await add.click();
    await page.locator("[data-passkey-list] li").first().waitFor();
    expect(await page.locator("[data-passkey-list]").innerText()).toContain("Robin's phone");
    expect(await ctx.db("home_passkeys").where({ email: EMAIL }).count({ n: "*" })).toEqual([{ n: 1 }]);

    // Signed out, the sign-in page offers the passkey; the virtual authenticator answers.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(`${baseUrl}/my-home/sign-in`);
    expect((await page.context().cookies()).find((c) => c.name === "haven_home")).toBeUndefined();
    const passkey = page.getByRole("button", { name: "Sign in with a passkey" });
    await passkey.waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "home-sign-in-passkey");
    await passkey.click();
    await page.waitForURL(`${baseUrl}/my-home`);
    expect((await page.context().cookies()).find((c) => c.name === "haven_home")).toBeTruthy();
    const session = await ctx.db("home_sessions").where({ email: EMAIL, method: "passkey" }).first();
    expect(session).toBeTruthy();
    expect((await ctx.db("home_passkeys").where({ email: EMAIL }).first()).last_used_at).not.toBeNull();
  });
});
