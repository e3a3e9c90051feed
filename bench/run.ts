// `npm run bench`: prints every figure of DESIGN.md's budget table that exists so far.
// Nothing here fails a build; read the figures. Set BENCH_ONLY=ssr,marketing,islands to pick some.
import { ensureAssets } from "../src/build-assets.js";
import { runSsrBench } from "./ssr.js";
import { startBenchApp } from "./support.js";

const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
const wanted = (name: string) => !only || only.includes(name);

await ensureAssets();
const haven = await startBenchApp();
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
} finally {
  await haven.stop();
}
process.exit(0);
