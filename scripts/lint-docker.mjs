// Lints the Docker files without a Docker engine (CI has none): `npm run lint:docker`.
// - Dockerfile: dockerfile-utils' validator (any error fails), then Haven's own rules for the image.
// - docker-compose.yml: dclint, then Haven's own rules for the stack.
// - .dockerignore: what must never reach the build context.
// Exits 1 with one line per problem.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import dockerfileUtils from "dockerfile-utils";
import { parse } from "yaml";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const read = (file) => readFileSync(path.join(root, file), "utf8");
const problems = [];
const fail = (file, message) => problems.push(`${file}: ${message}`);
// LSP severities: 1 is an error, 2 a warning.
const ERROR = 1;

// ---------- Dockerfile ----------
const dockerfile = read("Dockerfile");
for (const d of dockerfileUtils.validate(dockerfile)) {
  if (d.severity === ERROR) fail("Dockerfile", `line ${d.range.start.line + 1}: ${d.message}`);
}
const nodeImage = dockerfile.match(/^ARG NODE_IMAGE=(\S+)$/m)?.[1];
if (!nodeImage) fail("Dockerfile", "ARG NODE_IMAGE=<image> is missing");
// Node 24 LTS on bookworm-slim, pinned to a release (never `latest`, never a bare major).
else if (!/^node:24\.\d+\.\d+-bookworm-slim$/.test(nodeImage)) fail("Dockerfile", `NODE_IMAGE must be node:24.<minor>.<patch>-bookworm-slim, not ${nodeImage}`);
for (const [, image] of dockerfile.matchAll(/^FROM\s+(\S+)/gm)) {
  if (image !== "${NODE_IMAGE}" && (!image.includes(":") || image.endsWith(":latest"))) fail("Dockerfile", `FROM ${image} must be pinned to a tag`);
}
const runtime = dockerfile.split(/^FROM .* AS runtime$/m)[1];
if (!runtime) fail("Dockerfile", "no `runtime` stage");
else {
  if (!/^USER node$/m.test(runtime)) fail("Dockerfile", "the runtime stage must run as USER node");
  for (const line of runtime.split("\n").filter((l) => /^COPY /.test(l))) {
    if (!line.includes("--chown=node:node")) fail("Dockerfile", `runtime COPY without --chown=node:node: ${line}`);
  }
  if (/npm (ci|install)(?![^\n]*--omit=dev)/.test(runtime)) fail("Dockerfile", "the runtime stage installs dev dependencies");
  if (!/HEALTHCHECK[\s\S]*\/readyz/.test(runtime)) fail("Dockerfile", "the HEALTHCHECK must use /readyz");
}
if (!/npm ci --omit=dev/.test(dockerfile)) fail("Dockerfile", "production dependencies must be installed with npm ci --omit=dev");

// ---------- docker-compose.yml ----------
// no-build-and-image: migrate, web and worker name one image and build it once (Compose's documented pattern).
const dclint = spawnSync(process.execPath, [path.join(root, "node_modules/dclint/bin/dclint.cjs"), "docker-compose.yml", "--disable-rule", "no-build-and-image", "--no-color"], {
  cwd: root,
  encoding: "utf8",
});
if (dclint.status !== 0) fail("docker-compose.yml", `dclint found errors:\n${dclint.stdout}${dclint.stderr}`);
else if (dclint.stdout.trim()) console.log(dclint.stdout.trim());

const compose = parse(read("docker-compose.yml"), { merge: true });
const services = compose?.services ?? {};
for (const name of ["postgres", "migrate", "web", "worker", "proxy", "mailpit"]) if (!services[name]) fail("docker-compose.yml", `service ${name} is missing`);
for (const [name, service] of Object.entries(services)) {
  const image = String(service.image ?? "");
  if (!image.includes(":") || /:latest$/.test(image)) fail("docker-compose.yml", `${name}: image ${image || "(none)"} must be pinned to a tag, never latest`);
  const restart = name === "migrate" ? "no" : "unless-stopped";
  if (service.restart !== restart) fail("docker-compose.yml", `${name}: restart must be ${restart}`);
}
for (const name of ["migrate", "web", "worker"]) {
  const service = services[name];
  if (!service) continue;
  if (service.init !== true) fail("docker-compose.yml", `${name}: init: true (tini reaps children and forwards signals)`);
  if (service.image !== services.web?.image) fail("docker-compose.yml", `${name}: must use the same image as web`);
  if (name !== "migrate" && service.depends_on?.migrate?.condition !== "service_completed_successfully") {
    fail("docker-compose.yml", `${name}: must wait for migrate (condition: service_completed_successfully)`);
  }
}
if (services.web?.ports) fail("docker-compose.yml", "web publishes no port (the proxy does), or --scale web=2 collides");
if (!services.web?.environment?.TRUST_PROXY) fail("docker-compose.yml", "web needs TRUST_PROXY behind the proxy");
// Production values are never filled in: a missing one stops `docker compose up`, naming it (docs/operations.md).
const composeText = read("docker-compose.yml");
for (const name of ["SESSION_SECRET", "PUBLIC_URL", "POSTGRES_PASSWORD", "SMTP_URL", "METRICS_TOKEN"]) {
  const uses = [...composeText.matchAll(new RegExp(`\\$\\{${name}([^A-Z_][^}]*)?\\}`, "g"))].map((m) => m[0]);
  if (!uses.length) fail("docker-compose.yml", `${name} is never passed`);
  for (const use of uses) if (!use.startsWith(`\${${name}:?`)) fail("docker-compose.yml", `${use}: a production value must be required (\${${name}:?message}), never defaulted`);
}
if (!services.mailpit?.profiles?.includes("dev")) fail("docker-compose.yml", "mailpit belongs to the dev profile");
for (const [name, service] of Object.entries(services)) {
  if (name !== "mailpit" && JSON.stringify(service).includes("mailpit")) fail("docker-compose.yml", `${name}: only the dev run points at mailpit`);
  if (service.logging?.driver !== "json-file" || !service.logging?.options?.["max-size"] || !service.logging?.options?.["max-file"]) {
    fail("docker-compose.yml", `${name}: logging must be json-file with max-size and max-file (x-logging)`);
  }
}
for (const port of services.mailpit?.ports ?? []) if (!String(port).startsWith("127.0.0.1:")) fail("docker-compose.yml", `mailpit port ${port} must bind 127.0.0.1`);
// Limits: one service that leaks or spins cannot take the host's memory or every core from the others.
for (const [name, service] of Object.entries(services)) {
  const limits = service.deploy?.resources?.limits;
  if (!limits?.memory || !limits?.cpus) fail("docker-compose.yml", `${name}: deploy.resources.limits needs memory and cpus`);
}
if (!services.postgres?.shm_size) fail("docker-compose.yml", "postgres: shm_size (Docker's 64 MB /dev/shm fails parallel queries)");
// Health checks: web's is the image's HEALTHCHECK; the others say it in compose.
for (const name of ["postgres", "worker", "proxy", "backup"]) {
  const check = services[name]?.healthcheck;
  if (!check?.test || check.disable) fail("docker-compose.yml", `${name}: a healthcheck`);
}
// The backup runs on a schedule that retries, not `sleep 86400` after each start.
const backupScript = [services.backup?.command ?? []].flat().join("\n");
if (/sleep 86400/.test(backupScript) || !/BACKUP_AT/.test(backupScript) || !/BACKUP_RETRY_S/.test(backupScript))
  fail("docker-compose.yml", "backup: a daily time (BACKUP_AT) and a retry after a failure (BACKUP_RETRY_S), never sleep 86400");
if (!/sha256/.test(backupScript)) fail("docker-compose.yml", "backup: each backup's SHA-256 beside it (haven doctor reads it)");
const caddyfile = read("Caddyfile");
// The Caddyfile names the replicas by their compose container names (project `haven`), with active health checks.
if (compose?.name !== "haven") fail("docker-compose.yml", "name: haven (the Caddyfile names web's replicas haven-web-<n>)");
const proxy = caddyfile.slice(caddyfile.indexOf("reverse_proxy"));
if (!/^\s*to haven-web-1:3000( haven-web-\d+:3000)+\s*$/m.test(proxy)) fail("Caddyfile", "reverse_proxy must name web's replicas: to haven-web-1:3000 haven-web-2:3000 …");
if (!/^\s*health_uri \/(livez|readyz)\s*$/m.test(proxy)) fail("Caddyfile", "reverse_proxy needs active health checks (health_uri /livez or /readyz)");
const maxFails = Number(/^\s*max_fails (\d+)\s*$/m.exec(proxy)?.[1] ?? 1);
if (maxFails < 2) fail("Caddyfile", `max_fails ${maxFails}: one failed dial must not take the only replica out`);
if (!/^http:\/\/:8081 \{/m.test(caddyfile) || !JSON.stringify(services.proxy?.healthcheck?.test ?? "").includes("127.0.0.1:8081"))
  fail("Caddyfile", "the proxy's health check answers on http://:8081, and compose's proxy healthcheck asks it");
// Express answers /METRICS and /metrics/ too: the proxy's block must be case-insensitive and cover a suffix.
if (!/^\s*@metrics path_regexp \(\?i\)\S*metrics\S*$/m.test(caddyfile) || !/^\s*respond @metrics 404$/m.test(caddyfile)) {
  fail("Caddyfile", "/metrics must be refused in every spelling: @metrics path_regexp (?i)^/+metrics(/|$) and respond @metrics 404");
}

// ---------- .dockerignore ----------
const ignored = new Set(read(".dockerignore").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")));
for (const entry of ["node_modules", ".data", ".env", ".git", "dist"]) if (!ignored.has(entry)) fail(".dockerignore", `${entry} must be ignored`);

if (problems.length) {
  for (const p of problems) console.error(`lint-docker: ${p}`);
  process.exit(1);
}
console.log("lint-docker: Dockerfile, docker-compose.yml, Caddyfile and .dockerignore are fine");
