import { ApiError } from "../ui/api";

/** The error text of a failed call: the API's message when it sent one. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    try {
      return (JSON.parse(error.body) as { message?: string }).message ?? error.body;
    } catch {
      return error.body;
    }
  }
  return error instanceof Error ? error.message : "Something went wrong. Please try again.";
}
