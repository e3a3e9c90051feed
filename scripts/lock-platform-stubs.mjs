// The registry this project installs from lacks some optional, platform-specific binaries (for
// example @biomejs/cli-darwin-arm64). npm then leaves them out of package-lock.json and `npm ci`
// refuses the lock. This adds the missing entries with their real os/cpu, so npm skips them on
// machines of another platform and fetches them from the public registry on their own platform.
// Run after `npm install`: node scripts/lock-platform-stubs.mjs
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

function platformOf(name) {
  const base = name.split("/").pop();
  const os = ["android", "darwin", "freebsd", "linux", "win32", "openbsd", "sunos", "aix"].find((o) => base.includes(o));
  const cpu = ["arm64", "x64", "ia32", "arm", "wasm32", "riscv64", "ppc64", "s390x"].find((c) => new RegExp(`(^|-)${c}(-|$)`).test(base));
  const libc = base.includes("musl") ? "musl" : base.includes("linux") && !base.includes("gnueabihf") ? "glibc" : base.includes("gnueabihf") ? "glibc" : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (packages[key] || packages[`${path}/node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu) continue;
    packages[key] = {
      version,
      ...(cpu && { cpu: [cpu] }),
      ...(entry.dev && { dev: true }),
      ...(libc && { libc: [libc] }),
      optional: true,
      ...(os && { os: [os] }),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platform-stubs: added ${added} entr${added === 1 ? "y" : "ies"}`);
