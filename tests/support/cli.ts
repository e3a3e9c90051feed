import { spawn } from "node:child_process";
import { Console } from "node:console";
import { Readable, Writable } from "node:stream";
import { ROOT_DIR } from "../../src/http/assets.js";
import { entryArguments } from "./node-bundle.js";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the `haven` program as its own process (cli/index.ts, the bin's entry, as its bundle: node-bundle.ts) against
 * a test's database, with optional stdin and extra environment.
 */
export function runHaven(
  databaseUrl: string,
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entryArguments("cli/index.ts"), ...args], {
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

/** Collects what is written to it, as a string. */
class Collector extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

let inProcessQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs the `haven` program (cli/main.ts, the same commands the bin runs) in this process, with its output
 * captured: a process start per command costs seconds, and the CLI tests run hundreds of commands. What only the
 * process does (exit codes as the shell sees them, stdin, pipes, flushing) is tested through runHaven.
 * One command at a time: the environment, console and output streams are the process's.
 */
export function runHavenHere(
  databaseUrl: string,
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const run = inProcessQueue.then(() => runOnce(databaseUrl, args, options.env ?? {}, options.stdin ?? ""));
  inProcessQueue = run.catch(() => undefined);
  return run;
}

async function runOnce(
  databaseUrl: string,
  args: string[],
  env: Record<string, string>,
  input: string,
): Promise<CliResult> {
  const { main } = await import("../../cli/main.js");
  const stdout = new Collector();
  const stderr = new Collector();
  const savedEnv = { ...process.env };
  const savedConsole = globalThis.console;
  const savedWrites = { out: process.stdout.write, err: process.stderr.write };
  const savedExitCode = process.exitCode;
  const savedStdin = Object.getOwnPropertyDescriptor(process, "stdin")!;
  // stdin as a pipe gives it: the text, then its end (not a terminal).
  const stdin = Readable.from(input ? [Buffer.from(input)] : []);
  Object.defineProperty(process, "stdin", { configurable: true, get: () => stdin });
  Object.assign(process.env, { DATABASE_URL: databaseUrl, NODE_ENV: "test" }, env);
  globalThis.console = new Console(stdout, stderr);
  const into = (collector: Collector) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      collector.text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      const done = rest.find((r): r is () => void => typeof r === "function");
      done?.();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = into(stdout);
  process.stderr.write = into(stderr);
  process.exitCode = undefined;
  try {
    const code = await main(["node", "haven", ...args]);
    return { code, stdout: stdout.text, stderr: stderr.text };
  } finally {
    Object.defineProperty(process, "stdin", savedStdin);
    process.stdout.write = savedWrites.out;
    process.stderr.write = savedWrites.err;
    globalThis.console = savedConsole;
    process.exitCode = savedExitCode;
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  }
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
  const haven = [process.execPath, ...entryArguments("cli/index.ts"), ...args].map(quote).join(" ");
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
