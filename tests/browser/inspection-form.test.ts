import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";

let ctx: TestContext;
let site: BrowserSite;
const staff = { email: "inspector@haven.test", password: "inspector-test-password" };
let propertyId: number;

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  await ctx.container.users.create({ ...staff, firstName: "Iris", lastName: "Inspector" });
  for (let i = 1; i <= 30; i++) {
    const { property } = await ctx.container.customers.createWithProperty(
      { email: `owner${i}@example.ca`, name: `Owner ${i}`, phone: "306-555-0100", subscriptionPlan: "standard" },
      {
        address: `${i} ${i === 17 ? "Bluebell Lane" : "Main Street"}`,
        city: "Saskatoon",
        province: "SK",
        postalCode: "S7K 1A1",
      },
    );
    if (i === 17) propertyId = property.id;
  }
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await waitForIslands(page);
}

async function expectToast(page: Page, title: string | RegExp, description?: string) {
  const toast = page.getByTestId("toast").filter({ hasText: title });
  await toast.first().waitFor();
  if (description) expect(await toast.first().innerText()).toContain(description);
}

const card = (page: Page, category: string, subcategory: string) =>
  page.locator(`[data-entry="${category}|${subcategory}"]`);

async function score(page: Page, category: string, subcategory: string, label: string) {
  const button = card(page, category, subcategory).getByRole("button", { name: label, exact: true });
  await button.click();
  expect(await button.getAttribute("aria-pressed")).toBe("true");
}

async function openCategory(page: Page, name: string) {
  const toggle = page.locator(`[data-category="${name}"] .category-toggle`);
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
}

/** A photo as a phone takes it: a big landscape JPEG whose EXIF says to show it rotated. */
const phonePhoto = (seed: number) =>
  sharp({ create: { width: 3000, height: 2000, channels: 3, background: { r: seed * 40, g: 120, b: 80 } } })
    .jpeg({ quality: 70 })
    .withMetadata({ orientation: 6 })
    .toBuffer();

async function addPhotos(target: Locator, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await target.getByLabel(/^Add photos to/).setInputFiles(files);
}

/**
 * Cards off screen skip rendering (content-visibility: auto) until scrolled to; a full-page screenshot does
 * not scroll, so draw them all first.
 */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>(".entry-card")) el.style.contentVisibility = "visible";
  });
  await screenshotBothWidths(page, name);
}

const saveState = (page: Page) => page.getByTestId("save-state");
const waitUntilAllSaved = (page: Page) =>
  expect.poll(() => saveState(page).innerText(), { timeout: 30_000 }).toBe("All changes saved");

const entriesOf = async (inspectionId: number) => {
  const rows = await ctx
    .db("inspection_entries")
    .where({ inspection_id: inspectionId })
    .select("id", "category_name", "subcategory_name", "score", "notes", "urgent");
  const photos = await ctx
    .db("inspection_entry_photos")
    .whereIn(
      "entry_id",
      rows.map((r) => r.id),
    )
    .orderBy("position")
    .select("entry_id", "photo_id");
  return new Map(
    rows.map((r) => [
      `${r.category_name}|${r.subcategory_name}`,
      { ...r, photos: photos.filter((p) => p.entry_id === r.id).map((p) => p.photo_id as number) },
    ]),
  );
};

describe("the inspection form on a phone", () => {
  it("starts, scores with photos, adds a kitchen, survives the network going away and a reload, and completes", {
    timeout: 240_000,
  }, async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, "/admin/inspections/new");
    await page.getByRole("button", { name: "Start Inspection" }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "inspection-form-new");

    // No property yet.
    await page.getByRole("button", { name: "Start Inspection" }).click();
    await expectToast(page, "Please select a property");

    // The picker searches on the server.
    await page.getByLabel("Search properties").fill("Bluebell");
    const choice = page.getByRole("radio", { name: /17 Bluebell Lane/ });
    await expect.poll(() => page.getByRole("radio").count()).toBe(1);
    await choice.check();
    // The server fails once: the spec's toast, and the picker stays.
    await page.route(
      "**/api/inspections",
      (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"down"}' }),
      { times: 1 },
    );
    await page.getByRole("button", { name: "Start Inspection" }).click();
    await expectToast(page, "Failed to start inspection");
    expect(await choice.isChecked()).toBe(true);
    await page.getByRole("button", { name: "Start Inspection" }).click();
    await expectToast(page, "Inspection Started");
    await page.waitForURL(/\/admin\/inspections\/edit\/\d+$/);
    const inspectionId = Number(page.url().split("/").pop());
    expect((await ctx.db("inspections").where({ id: inspectionId }).first()).property_id).toBe(propertyId);
    await page.getByTestId("sticky-bar").waitFor();

    // Attic, Basement and Plumbing are open; the others closed.
    const expanded = await page
      .locator(".category-toggle")
      .evaluateAll((els) =>
        els.map((e) => [e.closest("[data-category]")!.getAttribute("data-category"), e.getAttribute("aria-expanded")]),
      );
    expect(expanded.filter(([, open]) => open === "true").map(([name]) => name)).toEqual([
      "Basement, Foundation, Crawlspace & Structure",
      "Plumbing",
      "Attic",
    ]);
    expect(await page.locator('[data-category="Attic"] [data-testid="category-progress"]').innerText()).toBe(
      "0/7 (0%)",
    );

    // Score the attic, one tap each; notes, urgent and photos (a PDF among them is skipped).
    const attic = ["Access", "Insulation", "Ventilation", "Moisture", "Pest Intrusion", "Air Sealing"];
    const labels = [
      "10 Excellent",
      "7 Good",
      "4 Needs Attention",
      "1 Immediate Action Required",
      "10 Excellent",
      "7 Good",
    ];
    for (const [i, sub] of attic.entries()) await score(page, "Attic", sub, labels[i]!);
    expect(await page.locator('[data-category="Attic"] [data-testid="category-progress"]').innerText()).toBe(
      "6/7 (86%)",
    );
    await card(page, "Attic", "Moisture").getByLabel("Notes").fill("Staining on the north rafters");
    await card(page, "Attic", "Moisture").getByLabel("Mark as urgent").check();
    await addPhotos(card(page, "Attic", "Moisture"), [
      { name: "rafters.jpg", mimeType: "image/jpeg", buffer: await phonePhoto(1) },
      { name: "rafters-2.jpg", mimeType: "image/jpeg", buffer: await phonePhoto(2) },
      { name: "invoice.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
    ]);
    await expectToast(page, "Photos uploaded", "2 photos added to Moisture; 1 file was not an image and skipped.");
    expect(await card(page, "Attic", "Moisture").locator(".photo-strip li").count()).toBe(2);

    // The photo viewer (its own chunk) shows a photo and deletes one.
    await card(page, "Attic", "Moisture")
      .getByRole("button", { name: /Open photo 2 of Moisture/ })
      .click();
    const viewer = page.getByRole("dialog", { name: "Photos of Moisture" });
    await viewer.waitFor();
    await expectAccessible(page);
    expect(await viewer.getByText("Moisture: photo 2 of 2").isVisible()).toBe(true);
    await viewer.getByRole("button", { name: "Delete photo" }).click();
    await viewer.getByText("Moisture: photo 1 of 1").waitFor();
    await viewer.getByRole("button", { name: "Close" }).click();
    await viewer.waitFor({ state: "detached" });
    expect(await card(page, "Attic", "Moisture").locator(".photo-strip li").count()).toBe(1);

    // Another kitchen: its entries carry the suffix.
    await openCategory(page, "Kitchens & Wet Bars");
    // 'Add kitchen' sits in the section's header, above the cards (no scrolling past them all).
    const addKitchen = page
      .locator('[data-category="Kitchens & Wet Bars"] .category-head')
      .getByRole("button", { name: "Add kitchen" });
    const firstKitchenCard = page.locator('[data-category="Kitchens & Wet Bars"] .entry-card').first();
    expect((await addKitchen.boundingBox())!.y).toBeLessThan((await firstKitchenCard.boundingBox())!.y);
    await addKitchen.click();
    await expectToast(page, "Kitchen 2 added");
    await score(page, "Kitchens & Wet Bars", "Dishwasher (Kitchen 2)", "4 Needs Attention");
    await score(page, "Kitchens & Wet Bars", "Dishwasher", "10 Excellent");
    // A third, left empty, can go again.
    await page.getByRole("button", { name: "Add kitchen" }).click();
    await page.getByRole("button", { name: "Remove Kitchen 3" }).click();
    expect(await card(page, "Kitchens & Wet Bars", "Dishwasher (Kitchen 3)").count()).toBe(0);

    // Type of Cladding takes a description, no score.
    await openCategory(page, "Exterior Envelope");
    expect(
      await card(page, "Exterior Envelope", "Type of Cladding").getByRole("button", { name: "10 Excellent" }).count(),
    ).toBe(0);
    await card(page, "Exterior Envelope", "Type of Cladding").getByLabel("Description").fill("Brick veneer");

    await page.getByRole("button", { name: "Save Inspection" }).click();
    await expectToast(page, "Successfully saved 9 category assessments");
    await waitUntilAllSaved(page);
    let saved = await entriesOf(inspectionId);
    expect(saved.get("Attic|Moisture")).toMatchObject({
      score: 1,
      notes: "Staining on the north rafters",
      urgent: true,
    });
    expect(saved.get("Attic|Moisture")!.photos).toHaveLength(1);
    expect(saved.get("Kitchens & Wet Bars|Dishwasher (Kitchen 2)")).toMatchObject({ score: 4 });
    expect(saved.get("Exterior Envelope|Type of Cladding")).toMatchObject({ score: null, notes: "Brick veneer" });
    expect(await card(page, "Attic", "Moisture").getByTestId("entry-status").innerText()).toBe("Saved");
    await expectAccessible(page);
    await shoot(page, "inspection-form-scored");

    // The worker keeps the form's code and this inspection's page before the signal goes.
    await page.waitForFunction(
      async (id) =>
        Boolean(
          navigator.serviceWorker.controller &&
            (await caches.match(`/admin/inspections/edit/${id}`, { ignoreVary: true })),
        ),
      inspectionId,
    );

    // ---- The network goes away halfway ----
    await page.context().setOffline(true);
    await expect.poll(() => saveState(page).innerText()).toContain("Offline");
    const plumbing = ["Water Main Shut Off", "Pressure and Flow", "Drain/Waste/Vent"];
    for (const sub of plumbing) await score(page, "Plumbing", sub, "7 Good");
    await card(page, "Plumbing", "Pressure and Flow").getByLabel("Notes").fill("Low pressure upstairs");
    await addPhotos(card(page, "Plumbing", "Drain/Waste/Vent"), [
      { name: "drain.jpg", mimeType: "image/jpeg", buffer: await phonePhoto(3) },
    ]);
    await expectToast(page, "Photos uploaded", "1 photo added to Drain/Waste/Vent.");
    await expect.poll(() => saveState(page).innerText()).toMatch(/^Offline · \d+ waiting on this device$/);
    expect(await card(page, "Plumbing", "Pressure and Flow").getByTestId("entry-status").innerText()).toBe(
      "On this device",
    );
    expect(
      await card(page, "Plumbing", "Drain/Waste/Vent").locator("[data-photo-status]").getAttribute("data-photo-status"),
    ).toBe("device");
    await shoot(page, "inspection-form-offline");

    // Reload with no network: the worker serves the page, IndexedDB the edits.
    await page.reload();
    await waitForIslands(page);
    await page.getByTestId("sticky-bar").waitFor();
    expect(await card(page, "Plumbing", "Pressure and Flow").getByLabel("Notes").inputValue()).toBe(
      "Low pressure upstairs",
    );
    expect(
      await card(page, "Plumbing", "Water Main Shut Off")
        .getByRole("button", { name: "7 Good" })
        .getAttribute("aria-pressed"),
    ).toBe("true");
    expect(await card(page, "Plumbing", "Drain/Waste/Vent").locator(".photo-strip li").count()).toBe(1);
    // The page learns it is offline from the browser once it starts (its first pass or the offline event).
    await expect.poll(() => saveState(page).innerText()).toMatch(/^Offline · \d+ waiting on this device$/);
    // More work offline after the reload.
    await score(page, "Plumbing", "Hot Water System", "1 Immediate Action Required");
    await card(page, "Plumbing", "Hot Water System").getByLabel("Notes").fill("Tank leaking at the base");
    await addPhotos(card(page, "Plumbing", "Hot Water System"), [
      { name: "tank.jpg", mimeType: "image/jpeg", buffer: await phonePhoto(4) },
    ]);
    await expectToast(page, "Photos uploaded");
    await expectAccessible(page);
    // Nothing reached the server yet.
    expect((await entriesOf(inspectionId)).has("Plumbing|Hot Water System")).toBe(false);

    // ---- The network comes back ----
    await page.context().setOffline(false);
    await waitUntilAllSaved(page);
    saved = await entriesOf(inspectionId);
    for (const sub of plumbing) expect(saved.get(`Plumbing|${sub}`)?.score).toBe(7);
    expect(saved.get("Plumbing|Pressure and Flow")!.notes).toBe("Low pressure upstairs");
    expect(saved.get("Plumbing|Drain/Waste/Vent")!.photos).toHaveLength(1);
    expect(saved.get("Plumbing|Hot Water System")).toMatchObject({ score: 1, notes: "Tank leaking at the base" });
    expect(saved.get("Plumbing|Hot Water System")!.photos).toHaveLength(1);
    // Each photo stored once, upright and shrunk: 2000×3000 shown upright → 1365×2048.
    const photoIds = [...saved.values()].flatMap((e) => e.photos);
    expect(new Set(photoIds).size).toBe(3);
    const dims = await ctx.db("photos").whereIn("id", photoIds).select("width", "height");
    for (const d of dims) expect([d.width, d.height]).toEqual([1365, 2048]);
    expect(await card(page, "Plumbing", "Hot Water System").getByTestId("entry-status").innerText()).toBe("Saved");

    // One tap jumps to the next unscored item.
    await page.getByRole("button", { name: "Next unscored" }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest("[data-entry]")?.getAttribute("data-entry")))
      .toBe("Basement, Foundation, Crawlspace & Structure|Foundation Cracks");

    // Every sent entry has a score except the cladding (description only): Complete, in the sticky bar, is usable
    // and asks first, with how many items are scored.
    const complete = page.getByTestId("sticky-bar").getByTestId("complete-inspection");
    expect(await complete.getAttribute("aria-disabled")).toBe("false");
    expect(await page.getByTestId("completion-why").count()).toBe(0);
    await complete.click();
    await page.getByTestId("complete-dialog").waitFor();
    const scored = await ctx
      .db("inspection_entries")
      .where({ inspection_id: inspectionId })
      .whereNotNull("score")
      .count({ n: "*" });
    expect(await page.getByTestId("complete-count").innerText()).toMatch(
      new RegExp(`^${scored[0]!.n} of \\d+ items are scored \\(\\d+%\\)\\.$`),
    );
    await page.getByTestId("confirm-complete").click();
    await expectToast(page, "Inspection Completed Successfully");
    const done = await ctx.db("inspections").where({ id: inspectionId }).first();
    expect(done.status).toBe("completed");
    expect(done.overall_score).toBeGreaterThan(0);
    expect(await page.getByTestId("inspection-status").innerText()).toBe("Completed");
    expect(await page.getByRole("button", { name: "Complete Inspection" }).count()).toBe(0);
    await expectAccessible(page);
    await shoot(page, "inspection-form-completed");
    await page.context().close();
  });

  it("keeps 'Complete Inspection' unusable, saying why, while an entry with notes has no score, and queues completion offline", {
    timeout: 120_000,
  }, async () => {
    const { body } = await ctx.agent().get("/healthz");
    expect(body.status).toBe("ok");
    const inspection = await ctx.container.inspections.create({ propertyId, inspectionDate: "2026-11-20" }, null);
    const page = await site.newPage(PHONE);
    const reads: string[] = [];
    page.on("request", (r) => r.url().endsWith(`/api/inspections/${inspection.id}`) && reads.push(r.method()));
    await signIn(page, `/admin/inspections/edit/${inspection.id}`);
    await page.getByTestId("sticky-bar").waitFor();
    // The page preloads the inspection; the island uses that response rather than asking again.
    expect(reads).toEqual(["GET"]);
    expect(await page.getByRole("button", { name: "Update Inspection" }).isVisible()).toBe(true);
    // The button always shows in the sticky bar; while the server would refuse, it is aria-disabled, the bar
    // says why and names the item, and a tap does nothing.
    const complete = page.getByTestId("sticky-bar").getByTestId("complete-inspection");
    const why = page.getByTestId("completion-why");
    expect(await complete.getAttribute("aria-disabled")).toBe("true");
    expect(await why.innerText()).toBe("Score at least one item to complete the inspection.");
    await card(page, "Attic", "Access").getByLabel("Notes").fill("Hatch painted shut");
    await expect.poll(() => why.innerText()).toBe("This item has notes or photos but no score: Attic › Access.");
    expect(await complete.getAttribute("aria-disabled")).toBe("true");
    expect(await complete.getAttribute("aria-describedby")).toBe(await why.getAttribute("id"));
    await complete.dispatchEvent("click");
    expect(await page.getByTestId("complete-dialog").count()).toBe(0);
    // N/A is not a score: still blocked.
    await score(page, "Attic", "Access", "N/A");
    expect(await complete.getAttribute("aria-disabled")).toBe("true");
    expect(await why.innerText()).toBe("This item has notes or photos but no score: Attic › Access.");
    await score(page, "Attic", "Access", "7 Good");
    await expect.poll(() => complete.getAttribute("aria-disabled")).toBe("false");
    expect(await why.count()).toBe(0);
    await waitUntilAllSaved(page);

    // A failing save and a refused completion: the spec's toasts; nothing is lost.
    await page.route("**/api/inspection-categories", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"down"}' }),
    );
    await page.getByRole("button", { name: "Update Inspection" }).click();
    await expectToast(page, "Failed to save inspection data");
    await page.unroute("**/api/inspection-categories");
    const refusal = '{"message":"Attic › Access needs a score before the inspection can be completed"}';
    await page.route(
      "**/api/inspection-categories/bulk-complete",
      (route) => route.fulfill({ status: 400, contentType: "application/json", body: refusal }),
      { times: 1 },
    );
    await complete.click();
    await page.getByTestId("confirm-complete").click();
    await expectToast(page, `Failed to complete inspection: 400: ${refusal}`);
    expect((await ctx.db("inspections").where({ id: inspection.id }).first()).status).toBe("in_progress");
    await page.getByRole("button", { name: "Update Inspection" }).click();
    await expectToast(page, "Successfully saved 1 category assessments");

    await page.context().setOffline(true);
    await expect.poll(() => saveState(page).innerText()).toContain("Offline");
    await complete.click();
    await page.getByTestId("confirm-complete").click();
    await expectToast(page, "Completion queued");
    await page.getByTestId("completion-waiting").waitFor();
    expect(await saveState(page).innerText()).toBe("Offline · 1 waiting on this device");
    expect((await ctx.db("inspections").where({ id: inspection.id }).first()).status).toBe("in_progress");
    await page.context().setOffline(false);
    await expectToast(page, "Inspection Completed Successfully");
    const done = await ctx.db("inspections").where({ id: inspection.id }).first();
    expect([done.status, done.overall_score]).toEqual(["completed", 70]);
    await page.context().close();
  });
});
