// `npm run bench`: prints every figure of the budget table in docs/architecture.md that exists so far.
// Read the figures; only the load step fails the run (exit 1), on a 5xx or a request left without an answer.
// Set BENCH_ONLY=ssr,marketing,islands,inspection-form,maintenance,reports,load,dashboard,csv-export,subscriptions to pick some.
import { ensureAssets } from "../src/build-assets.js";
import { runSsrBench } from "./ssr.js";
import { startBenchApp } from "./support.js";

const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
const wanted = (name: string) => !only || only.includes(name);

await ensureAssets();
const haven = await startBenchApp();
let failed = false;
try {
  if (wanted("ssr")) await runSsrBench(haven);
  if (wanted("marketing")) {
    const { runMarketingBench } = await import("./marketing.js");
    await runMarketingBench(haven);
  }
  if (wanted("islands")) {
    const { runIslandsBench } = await import("./islands.js");
    await runIslandsBench(haven);
  }
  if (wanted("inspection-form")) {
    const { runInspectionFormBench } = await import("./inspection-form.js");
    await runInspectionFormBench(haven);
  }
  if (wanted("maintenance")) {
    const { runMaintenanceBench } = await import("./maintenance.js");
    await runMaintenanceBench(haven);
  }
  if (wanted("reports")) {
    const { runReportsBench } = await import("./reports.js");
    await runReportsBench(haven);
  }
  // Before the fill: a business of a few hundred homes under a burst (docs/decisions.md#46).
  if (wanted("load")) {
    const { runLoadBench } = await import("./load.js");
    failed = !(await runLoadBench(haven));
  }
  // Last: it fills the database with 100,000 properties.
  if (wanted("dashboard")) {
    const { runDashboardBench } = await import("./dashboard.js");
    await runDashboardBench(haven);
  }
  // After the dashboard's fill (it makes the 100,000 properties itself when run alone).
  if (wanted("csv-export")) {
    const { runCsvExportBench } = await import("./csv-export.js");
    await runCsvExportBench(haven);
  }
  // After the dashboard's fill: its 100,000 homes get the 100,000 subscriptions (alone, they have none).
  if (wanted("subscriptions")) {
    const { runSubscriptionsBench } = await import("./subscriptions.js");
    await runSubscriptionsBench(haven);
  }
} finally {
  await haven.stop();
}
process.exit(failed ? 1 : 0);
