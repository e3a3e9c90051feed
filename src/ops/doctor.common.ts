// What every `haven doctor` check returns (doctor.ts runs them), and the helpers that make one.

export type Status = "ok" | "warn" | "fail" | "skip";

export interface Check {
  name: string;
  status: Status;
  /** What was found. */
  message: string;
  /** What to do about it (warn and fail). */
  fix?: string;
}

export const ok = (name: string, message: string): Check => ({ name, status: "ok", message });
export const warn = (name: string, message: string, fix: string): Check => ({ name, status: "warn", message, fix });
export const fail = (name: string, message: string, fix: string): Check => ({ name, status: "fail", message, fix });
export const skip = (name: string, message: string): Check => ({ name, status: "skip", message });

/** An error as one line: its code and the first line of its message. */
export const reason = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  const first = (e.message ?? String(error)).split("\n")[0] ?? "";
  return e.code && !first.includes(e.code) ? `${e.code}: ${first}` : first;
};
