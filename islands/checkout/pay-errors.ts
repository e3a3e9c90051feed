import { ApiError } from "../ui/api";

/** The error text of a failed call: the API's message when it sent one, else `fallback` (the page's language). */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    try {
      return (JSON.parse(error.body) as { message?: string }).message ?? error.body;
    } catch {
      return error.body;
    }
  }
  return error instanceof Error ? error.message : fallback;
}
