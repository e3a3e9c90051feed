import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepOf, totpAt } from "../../src/modules/auth/totp.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";

// Staff accounts (docs/decisions.md#38): the owner's /admin/staff at 390 and 1280 px, inviting through the htmx
// form, and the set-password page of the invitation.
let site: BrowserSite;
const owner = { email: "owner@haven.test", password: "owner-password-1", firstName: "Olga", lastName: "Owner" };

beforeAll(async () => {
  site = await openBrowserSite();
  await site.ctx.container.users.create({ ...owner, role: "owner" });
});
afterAll(() => site?.close());

describe("/admin/staff", () => {
  it("invites someone, who sets a password from the link and signs in", async () => {
    const page = await site.newPage(PHONE);
    await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent("/admin/staff")}`);
    await page.getByLabel("Company e-mail").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${site.baseUrl}/admin/staff`);
    await expectAccessible(page);

    await page.getByLabel("First name").fill("Ines");
    await page.getByLabel("Last name").fill("Pector");
    await page.getByLabel("E-mail").fill("ines@haven.test");
    await page.getByLabel("Role", { exact: true }).last().selectOption("inspector");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.locator('[data-testid="staff-notice"]').waitFor();
    expect(await page.locator('[data-testid="staff-notice"]').textContent()).toContain("The invitation was sent.");
    const invited = page.locator('[data-testid="staff-account"][data-email="ines@haven.test"]');
    expect(await invited.getAttribute("data-status")).toBe("invited");
    await expectAccessible(page);
    await screenshotBothWidths(page, "staff-accounts");

    const { rows } = await site.ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id desc limit 1",
    );
    const link = /(http\S+\/staff\/set-password\?token=[A-Za-z0-9_-]{43})/.exec(rows[0].payload.text)![1]!;
    const invitee = await site.newPage(DESKTOP);
    await invitee.goto(link);
    await expectAccessible(invitee);
    await screenshotBothWidths(invitee, "staff-set-password");
    await invitee.getByLabel("New password").fill("inspector-password");
    await invitee.getByLabel("Type it again").fill("inspector-password");
    await invitee.getByRole("button", { name: "Set password" }).click();
    await invitee.waitForURL(/\/login/);
    await invitee.getByLabel("Company e-mail").fill("ines@haven.test");
    await invitee.getByLabel("Password").fill("inspector-password");
    await invitee.getByRole("button", { name: "Sign In" }).click();
    await invitee.waitForURL(`${site.baseUrl}/admin`);

    await invitee.goto(link);
    expect(await invitee.locator('[data-testid="link-gone"]').textContent()).toContain(
      "already been used or has expired",
    );
    await page.context().close();
    await invitee.context().close();
  });

  it("adds an authenticator app at 390 px; the login page then asks for its code", async () => {
    const page = await site.newPage(PHONE);
    await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent("/admin/account/two-step")}`);
    await page.getByLabel("Company e-mail").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${site.baseUrl}/admin/account/two-step`);
    await page.getByRole("button", { name: "Add an authenticator app" }).click();
    const secret = ((await page.locator('[data-testid="two-step-secret"]').textContent()) ?? "").trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page);
    await screenshotBothWidths(page, "staff-two-step-add");
    await page.getByLabel("The 6-digit code it shows").fill(totpAt(secret, stepOf(new Date()) - 1));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.locator('[data-testid="two-step-done"]').waitFor();
    await page.context().close();

    const login = await site.newPage(PHONE);
    await login.goto(`${site.baseUrl}/login?next=${encodeURIComponent("/admin/staff")}`);
    await login.getByLabel("Company e-mail").fill(owner.email);
    await login.getByLabel("Password").fill(owner.password);
    await login.getByRole("button", { name: "Sign In" }).click();
    await login.getByLabel("Code from your authenticator app").waitFor();
    await expectAccessible(login);
    await screenshotBothWidths(login, "staff-two-step-login");
    await login.getByLabel("Password").fill(owner.password);
    await login.getByLabel("Code from your authenticator app").fill(totpAt(secret, stepOf(new Date())));
    await login.getByRole("button", { name: "Sign In" }).click();
    await login.waitForURL(`${site.baseUrl}/admin/staff`);
    await login.context().close();
  });
});
