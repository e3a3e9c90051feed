import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT_DIR } from "../../src/http/assets.js";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `haven` bin against a test's database, with optional stdin and extra environment. */
export function runHaven(
  databaseUrl: string,
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT_DIR, "bin/haven.js"), ...args], {
      cwd: ROOT_DIR,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "test", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

/** A reader at the far end of a real pipe that takes 4 KB every few milliseconds, as a slow consumer would. */
const SLOW_READER = `
const chunks = [];
process.stdin.on("end", () => process.stdout.write(Buffer.concat(chunks)));
const take = () => {
  const chunk = process.stdin.read(4096);
  if (chunk) chunks.push(chunk);
  if (!process.stdin.readableEnded) setTimeout(take, 3);
};
setTimeout(take, 3);
`;

/**
 * Runs `haven …` with its standard output piped (a shell pipe, as `haven … | slow-reader`) into a reader that
 * takes it slowly; resolves with what the reader received and haven's own exit code.
 */
export function runHavenIntoSlowPipe(
  databaseUrl: string,
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<CliResult> {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const haven = [process.execPath, path.join(ROOT_DIR, "bin/haven.js"), ...args].map(quote).join(" ");
  const reader = [process.execPath, "-e", SLOW_READER].map(quote).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -o pipefail; ${haven} | ${reader}`], {
      cwd: ROOT_DIR,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "test", ...options.env },
    });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => stdout.push(d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(stdout).toString("utf8"), stderr }));
    child.stdin.end();
  });
}
