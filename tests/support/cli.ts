import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT_DIR } from "../../src/http/assets.js";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `haven` bin against a test's database, with optional stdin and extra environment. */
export function runHaven(databaseUrl: string, args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
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
