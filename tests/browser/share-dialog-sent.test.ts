// The share dialog after 'Generate Link': a green success toast, and the dialog says where the e-mail went.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedReportFixture } from "../api/sharing-fixtures.js";
import { type BrowserSite, DESKTOP, PHONE, expectAccessible, screenshotBothWidths } from "../support/browser.js";
import { openStaffSite, signInAt } from "../support/staff-pages.js";

let site: BrowserSite;
const staffLogin = { email: "sender@haven.test", password: "sender-test-password" };
let fixture: Awaited<ReturnType<typeof sharedReportFixture>>;

beforeAll(async () => {
  ({ site } = await openStaffSite({ ...staffLogin, firstName: "Sam", lastName: "Sender" }));
  fixture = await sharedReportFixture(site.ctx, "12 Green Toast Road");
});
afterAll(() => site?.close());

const signIn = (page: Page, next: string) =>
  signInAt(site, page, staffLogin, next, { islands: true, adminReady: true });

/** The toast's background as [r, g, b]. */
const rgb = (css: string) => css.match(/\d+/g)!.slice(0, 3).map(Number) as [number, number, number];

describe("the share dialog after sharing", () => {
  for (const size of [PHONE, DESKTOP]) {
    it(`shows a green success toast and says the e-mail was sent (${size.width} px)`, async () => {
      const page = await site.newPage(size);
      await signIn(page, "/admin/reports");
      await page.locator(`[data-share-report="${fixture.report.id}"]`).first().click();
      const dialog = page.getByRole("dialog", { name: "Share Report" });
      await dialog.waitFor();
      await dialog.getByLabel("Client Email").fill("owner.green@example.com");
      await dialog.getByRole("button", { name: "Generate Link" }).click();
      const toast = page.getByTestId("toast").filter({ hasText: "Shareable link generated successfully!" });
      await toast.waitFor();
      const [r, g, b] = rgb(await toast.evaluate((el) => getComputedStyle(el).backgroundColor));
      expect(g, "green, not red").toBeGreaterThan(r);
      expect(g).toBeGreaterThan(b);
      // In the top layer after the modal dialog, so above its backdrop (hit tests skip it: the page outside is inert).
      expect(await toast.evaluate((el) => el.matches(":popover-open")), "the toast is on top").toBe(true);
      const sent = dialog.locator("[data-share-sent]");
      expect(await sent.innerText()).toBe("E-mail sent to owner.green@example.com with the link and the summary PDF.");
      await expectAccessible(page);
      await screenshotBothWidths(page, `share-dialog-sent-${size.width}`);
      await page.close();
    });
  }
});
