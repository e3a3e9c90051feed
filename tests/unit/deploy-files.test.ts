// The production stack's files, read as text (no Docker engine here): docker-compose.yml must not fill in a
// production value (a stack started with only SESSION_SECRET came up healthy, then lost every e-mail and answered
// every login with 403), mailpit is for the dev profile only, logs are capped, every service has limits and the
// long-running ones a health check, the backup service keeps a daily time and retries (its script is run here with
// a stand-in pg_dump), and the Caddyfile keeps /metrics out in every spelling Express answers and checks each
// replica's health (docs/decisions.md#47).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { until } from "../support/processes.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

type Service = {
  environment?: Record<string, string>;
  volumes?: string[];
  image?: string;
  command?: string[];
  profiles?: string[];
  logging?: { driver?: string; options?: Record<string, string> };
  healthcheck?: { test?: string[]; disable?: boolean; interval?: string };
  deploy?: { resources?: { limits?: { cpus?: string; memory?: string } } };
  shm_size?: string;
};
const composeText = read("docker-compose.yml");
const compose = parse(composeText, { merge: true }) as { name: string; services: Record<string, Service> };
const services = compose.services;

/** What production must set itself (docs/operations.md, "Variables that must be set"). */
const PRODUCTION = ["SESSION_SECRET", "PUBLIC_URL", "POSTGRES_PASSWORD", "SMTP_URL", "METRICS_TOKEN"];

describe("docker-compose.yml", () => {
  it("fills in no production value: each is required (VAR:?message) wherever it is used", () => {
    for (const name of PRODUCTION) {
      const uses = [...composeText.matchAll(new RegExp(`\\$\\{${name}([^A-Z_][^}]*)?\\}`, "g"))].map((m) => m[0]);
      expect(uses.length, name).toBeGreaterThan(0);
      for (const use of uses) expect(use, name).toMatch(new RegExp(`^\\$\\{${name}:\\?\\S.*\\}$`));
    }
    // Where they reach the processes.
    for (const service of ["migrate", "web", "worker"]) {
      for (const name of ["SESSION_SECRET", "PUBLIC_URL", "SMTP_URL", "METRICS_TOKEN"])
        expect(services[service]!.environment![name], `${service} ${name}`).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
      expect(services[service]!.environment!.DATABASE_URL).toContain("${POSTGRES_PASSWORD:?");
    }
    expect(services.postgres!.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
  });

  it("runs mailpit only under the dev profile, and nothing else points at it", () => {
    expect(services.mailpit!.profiles).toEqual(["dev"]);
    for (const [name, service] of Object.entries(services)) {
      if (name !== "mailpit") expect(JSON.stringify(service), name).not.toMatch(/mailpit/i);
    }
  });

  it("backs the database up daily with a pg_dump of the server's own version, kept where web's doctor reads it", () => {
    const backup = services.backup!;
    expect(backup.image).toBe(services.postgres!.image);
    expect(backup.volumes).toContain("backups:/backups");
    const script = backup.command!.join("\n");
    expect(script).toMatch(/pg_dump --format=custom[\s\S]*pg_restore --list[\s\S]*sha256sum/);
    // A daily time, not a day after each start.
    expect(script).not.toMatch(/sleep 86400/);
    expect(backup.environment!.BACKUP_AT).toMatch(/^\$\{BACKUP_AT:-\d\d:\d\d\}$/);
    // Unhealthy when the newest good backup is over 36 h old.
    expect(backup.healthcheck!.test!.join(" ")).toContain("-mmin -2160");
    expect(services.web!.environment!.BACKUP_DIR).toBe("/backups");
    expect(services.web!.volumes).toContain("backups:/backups:ro");
    // The worker has no pg_dump 17: its own daily job would only fail.
    expect(services.worker!.environment!.BACKUP_DIR).toBeUndefined();
  });

  it("limits every service's memory and CPU, gives Postgres a /dev/shm, and checks the health of each long-running one", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.deploy?.resources?.limits?.memory, name).toMatch(/^\d+[mg]$/);
      expect(Number(service.deploy?.resources?.limits?.cpus), name).toBeGreaterThan(0);
    }
    expect(services.postgres!.shm_size).toMatch(/^\d+m$/);
    for (const name of ["postgres", "worker", "proxy", "backup"]) {
      expect(services[name]!.healthcheck?.test?.length, name).toBeGreaterThan(0);
      expect(services[name]!.healthcheck?.disable, name).toBeFalsy();
    }
    // web's is the image's (Dockerfile HEALTHCHECK, /readyz).
    expect(read("Dockerfile")).toMatch(/HEALTHCHECK[\s\S]*\/readyz/);
  });

  it("caps every service's log (json-file, max-size and max-file)", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.logging?.driver, name).toBe("json-file");
      expect(service.logging?.options?.["max-size"], name).toMatch(/^\d+[kmg]$/);
      expect(Number(service.logging?.options?.["max-file"]), name).toBeGreaterThan(0);
    }
  });
});

/** The backup service's script as bash runs it (compose's `$$` is a `$`), writing into `dir` instead of /backups. */
const backupScript = (dir: string) => services.backup!.command![0]!.replaceAll("$$", "$").replaceAll("/backups", dir);

describe("the backup service's script", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the script with stand-ins for pg_dump (failing `fails` times first) and pg_restore, until it waits. */
  async function run(root: string, fails: number): Promise<{ out: string; err: string }> {
    const bin = path.join(root, "bin");
    spawnSync("mkdir", ["-p", bin, path.join(root, "backups")]);
    writeFileSync(path.join(root, "fails"), String(fails));
    writeFileSync(
      path.join(bin, "pg_dump"),
      `#!/bin/bash\nn=$(cat ${root}/fails); if [ "$n" -gt 0 ]; then echo $((n-1)) > ${root}/fails; echo "pg_dump: error: connection refused" >&2; exit 1; fi\nfor a in "$@"; do case $a in --file=*) f=\${a#--file=};; esac; done\nprintf 'PGDMP stand-in' > "$f"\n`,
    );
    writeFileSync(path.join(bin, "pg_restore"), '#!/bin/bash\nhead -c5 "$2" | grep -q PGDMP\n');
    for (const tool of ["pg_dump", "pg_restore"]) chmodSync(path.join(bin, tool), 0o755);
    const child = spawn("bash", ["-c", backupScript(path.join(root, "backups"))], {
      env: { PATH: `${bin}:${process.env.PATH}`, BACKUP_KEEP: "14", BACKUP_AT: "02:50", BACKUP_RETRY_S: "0" },
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    // Once it says when the next backup is, it only sleeps: that is the end of the run here.
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("next backup at")) resolve();
      });
      child.on("exit", () => resolve());
    });
    child.kill("SIGKILL");
    return { out, err };
  }

  it("backs up at a first start, retrying a failure, writes the SHA-256 beside it, then waits for BACKUP_AT", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "haven-backup-service-"));
    dirs.push(root);
    const first = await run(root, 2);
    expect(first.err.match(/backup failed after \d+ s; trying again in 0 s/g)).toHaveLength(2);
    expect(first.out).toMatch(
      /^backup: \S+\/haven-\d{8}T\d{6}Z\.dump, \S+, \d+ s\nnext backup at \d{4}-\d\d-\d\dT02:50Z\n$/,
    );
    const files = readdirSync(path.join(root, "backups")).sort();
    expect(files).toHaveLength(2);
    const [dump, sum] = files as [string, string];
    expect(sum).toBe(`${dump}.sha256`);
    const bytes = readFileSync(path.join(root, "backups", dump));
    expect(readFileSync(path.join(root, "backups", sum), "utf8")).toBe(
      `${createHash("sha256").update(bytes).digest("hex")}  ${dump}\n`,
    );

    // Started again (the container recreated) with a good backup under a day old: no backup, the same schedule.
    const again = await run(root, 0);
    expect(again.out).toMatch(/^next backup at \d{4}-\d\d-\d\dT02:50Z\n$/);
    expect(readdirSync(path.join(root, "backups"))).toHaveLength(2);
    // Five runs of the service's shell script, each a few processes: seconds on a busy machine, not a unit's 5.
  }, 30_000);
});

const caddyfile = read("Caddyfile");
/** The @metrics matcher's regular expression, as Caddy (Go RE2) reads it: `(?i)` is the `i` flag. */
function metricsMatcher(): RegExp {
  const line = /^\s*@metrics\s+path_regexp\s+(\S+)\s*$/m.exec(caddyfile);
  expect(line, "@metrics must be a path_regexp matcher").not.toBeNull();
  const pattern = line![1]!;
  expect(pattern.startsWith("(?i)"), "case-insensitive").toBe(true);
  return new RegExp(pattern.slice(4), "i");
}

describe("Caddyfile", () => {
  it("answers 404 for /metrics in every spelling Express routes to it, and only for those", () => {
    expect(caddyfile).toMatch(/^\s*respond @metrics 404\s*$/m);
    const matcher = metricsMatcher();
    for (const blocked of [
      "/metrics",
      "/METRICS",
      "/Metrics",
      "/metrics/",
      "/METRICS/",
      "//metrics",
      "/metrics/anything",
    ])
      expect(matcher.test(blocked), blocked).toBe(true);
    for (const open of ["/", "/api/plans", "/pricing", "/metricsx", "/admin/metrics", "/readyz"])
      expect(matcher.test(open), open).toBe(false);
  });

  it("retries another replica, or the one replacing it, for longer than a replica takes to start", () => {
    const proxy = caddyfile.slice(caddyfile.indexOf("reverse_proxy"));
    const seconds = Number(/lb_try_duration (\d+)s/.exec(proxy)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(30);
    expect(proxy).toMatch(/dial_timeout \d+s/);
  });

  it("checks each named replica's /livez, and one failed dial never takes the only replica out", () => {
    const proxy = caddyfile.slice(caddyfile.indexOf("reverse_proxy"));
    // Compose names the replicas <project>-web-<n>; the project is pinned.
    expect(compose.name).toBe("haven");
    expect(proxy).toMatch(/^\s*to haven-web-1:3000 haven-web-2:3000 haven-web-3:3000\s*$/m);
    expect(proxy).toMatch(/^\s*health_uri \/livez\s*$/m);
    expect(Number(/^\s*health_fails (\d+)/m.exec(proxy)?.[1])).toBeGreaterThanOrEqual(2);
    expect(Number(/^\s*max_fails (\d+)/m.exec(proxy)?.[1])).toBeGreaterThanOrEqual(2);
    // What a failure is remembered for stays short of lb_try_duration: a waiting request finds the replica back.
    expect(Number(/^\s*fail_duration (\d+)s/m.exec(proxy)?.[1])).toBeLessThanOrEqual(10);
    // The proxy's own health: compose asks Caddy's internal port.
    expect(caddyfile).toMatch(/^http:\/\/:8081 \{/m);
    expect(services.proxy!.healthcheck!.test!.join(" ")).toContain("http://127.0.0.1:8081/");
  });

  // With Caddy installed (Debian: apt-get install caddy), the real thing: its own reading of the file.
  const caddyVersion = spawnSync("caddy", ["version"], { encoding: "utf8" });
  const caddy = caddyVersion.status === 0;
  // Debian's Caddy (2.6) predates health_fails and health_passes (2.7); compose runs caddy:2.10. With an older
  // Caddy the file is read without those two lines, so the rest of it (the /metrics block) is still Caddy's reading.
  const [major = 0, minor = 0] = (caddyVersion.stdout?.match(/v?(\d+)\.(\d+)/) ?? []).slice(1).map(Number);
  const caddyfileForLocalCaddy = () =>
    major > 2 || (major === 2 && minor >= 7) ? caddyfile : caddyfile.replace(/^\s*health_(fails|passes) .*$/gm, "");
  let running: ReturnType<typeof spawn> | null = null;
  afterAll(() => {
    running?.kill("SIGKILL");
  });
  it.skipIf(!caddy)(
    "Caddy itself answers 404 for each spelling",
    async () => {
      const port = await new Promise<number>((resolve) => {
        const probe = net.createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as net.AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const folder = mkdtempSync(path.join(os.tmpdir(), "haven-caddy-"));
      const config = path.join(folder, "Caddyfile");
      writeFileSync(config, caddyfileForLocalCaddy());
      running = spawn("caddy", ["run", "--config", config, "--adapter", "caddyfile"], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          XDG_DATA_HOME: folder,
          XDG_CONFIG_HOME: folder,
          SITE_ADDRESS: `:${port}`,
        },
        stdio: "ignore",
      });
      const get = async (urlPath: string) => (await fetch(`http://127.0.0.1:${port}${urlPath}`)).status;
      await until("Caddy to listen", async () => (await get("/metrics")) > 0, 10_000, 50);
      for (const blocked of ["/metrics", "/METRICS", "/metrics/", "/Metrics/x", "//metrics", "/metrics?x=1"])
        expect(await get(blocked), blocked).toBe(404);
      rmSync(folder, { recursive: true, force: true });
    },
    20_000,
  );
});
