// Real Haven processes for the tests that need more than one (scale-out, shutdown): spawn an entry with its
// environment, wait until it is ready, signal or kill it, and always clean up.
import { type ChildProcess, spawn } from "node:child_process";
import { ROOT_DIR } from "../../src/http/assets.js";
import { entryArguments } from "./node-bundle.js";

export interface HavenProcess {
  name: string;
  pid: number;
  /** http://127.0.0.1:PORT for a web process (PORT given in its env); null otherwise. */
  url: string | null;
  child: ChildProcess;
  /** stdout and stderr so far (the last 200 KB), for failure messages. */
  output(): string;
  /** Whether it has exited. */
  exited(): boolean;
  /** Resolves when it has exited, with its code or signal. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal and waits for the exit (SIGKILL: the process gets no chance to clean up). */
  signal(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const OUTPUT_LIMIT = 200_000;

/**
 * Starts an entry (src/server.ts, src/worker.ts) as its bundle (node-bundle.ts) in the project folder with the
 * test's environment on top of this one. Nothing is read from a `.env`: give every variable it needs.
 */
export function spawnHaven(name: string, entry: string, env: Record<string, string>): HavenProcess {
  const child = spawn(process.execPath, entryArguments(entry), {
    cwd: ROOT_DIR,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let done = false;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const port = env.PORT;
  return {
    name,
    pid: child.pid!,
    url: port ? `http://127.0.0.1:${port}` : null,
    child,
    output: () => output,
    exited: () => done,
    exit,
    async signal(signal) {
      if (!done) child.kill(signal);
      return exit;
    },
  };
}

/**
 * Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs` naming `what`.
 * A thrown error counts as "not yet" (e.g. connection refused) unless it is a `GiveUp`.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ""}`,
      );
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Thrown inside an `until` check: stop waiting now. */
export class GiveUp extends Error {}

const exitedBeforeReady = (proc: HavenProcess) =>
  new GiveUp(`${proc.name} exited before it was ready\n--- ${proc.name} output ---\n${proc.output()}`);
const withOutput = (proc: HavenProcess) => (error: Error) => {
  throw error instanceof GiveUp ? error : new Error(`${error.message}\n--- ${proc.name} output ---\n${proc.output()}`);
};

/** Waits until a web process answers 200 on /readyz (or /healthz where there is no /readyz); fails at once if it exits. */
export async function waitUntilServing(proc: HavenProcess, timeoutMs = 60_000): Promise<void> {
  if (!proc.url) throw new Error(`${proc.name} has no PORT, so no URL to poll`);
  await until(
    `${proc.name} to answer on ${proc.url}`,
    async () => {
      if (proc.exited()) throw exitedBeforeReady(proc);
      for (const probe of ["/readyz", "/healthz"]) {
        const res = await fetch(`${proc.url}${probe}`);
        if (res.status === 404) continue;
        return res.status === 200;
      }
      return false;
    },
    timeoutMs,
  ).catch(withOutput(proc));
}

/** Waits until `ready` holds for a process without HTTP (a worker); fails at once if it exits. */
export async function waitUntil(
  proc: HavenProcess,
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  await until(
    `${proc.name}: ${what}`,
    async () => {
      if (proc.exited()) throw exitedBeforeReady(proc);
      return ready();
    },
    timeoutMs,
  ).catch(withOutput(proc));
}

/** Kills every process still running (SIGKILL) and waits for each to exit: for afterAll, even after a failure. */
export async function killAll(processes: HavenProcess[]): Promise<void> {
  await Promise.all(processes.map((proc) => proc.signal("SIGKILL")));
}
