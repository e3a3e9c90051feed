import type { Response } from "express";
import { ConflictError } from "./errors.js";

// Optimistic concurrency of the staff dialogs (quote requests, maintenance tasks): a PATCH carries the
// version it was made from; when the row has moved on, nothing is written and the caller gets the record
// as it is now, to show instead of what it typed over.

/** A PATCH that named an older version of its record: 409 with the record as it is now. */
export class StaleEditError<T> extends ConflictError {
  constructor(
    message: string,
    readonly current: T,
  ) {
    super(message);
  }
}

/** Answers a staff edit: the updated record, or 409 `{message, current}` when someone else changed it first. */
export async function answerEdit<T>(res: Response, edit: Promise<T>): Promise<void> {
  try {
    res.json(await edit);
  } catch (error) {
    if (!(error instanceof StaleEditError)) throw error;
    res.status(409).json({ message: error.message, current: error.current });
  }
}
