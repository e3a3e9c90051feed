// Sends what this device holds to the server in the background (docs/decisions.md#18): photos first,
// then changed entries in chunks of 5 (staff-side §9), then a queued completion. A network failure or a
// 5xx retries with backoff; a refusal (4xx) is shown where it belongs and not retried until the next change.
import { ApiError, apiRequest, handleUnauthorized } from "../ui/api";
import { toast } from "../ui/toast";
import { type LocalEntry, hasData, isDirty, toSend, waitingOf } from "./model";
import {
  completed,
  entriesRefused,
  entriesSaved,
  entryPayload,
  photoRefused,
  photoStored,
  photosUploaded,
  setSending,
} from "./sync-store";
import type { FormStore } from "./store";

export const SAVE_CHUNK_SIZE = 5;
const MIN_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** Changes made in a burst (typing notes) go out together. */
const QUIET_MS = 700;

/** The server refused some entries of a save: not worth retrying until they change. */
class RefusedError extends Error {}

/** A failure worth retrying: no network, a timeout, or a server error. */
export const isTransient = (error: unknown) =>
  !(error instanceof RefusedError) &&
  (!(error instanceof ApiError) || error.status >= 500 || error.status === 408 || error.status === 429);

const messageOf = (error: unknown) => {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  try {
    return (JSON.parse(error.body) as { message?: string }).message ?? error.message;
  } catch {
    return error.message;
  }
};

async function uploadPhoto(blob: Blob, clientId: string): Promise<{ id: number }> {
  const response = await fetch("/api/photos", {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": blob.type || "image/jpeg", "X-Client-Id": clientId, Accept: "application/json" },
    body: blob,
  });
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    throw new ApiError(response.status, `${response.status}: ${text}`, text);
  }
  return response.json() as Promise<{ id: number }>;
}

export class SyncEngine {
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private backoff = 0;
  private stopped = false;

  constructor(private readonly store: FormStore) {
    store.onLocalChange = () => this.schedule(QUIET_MS);
  }

  /** Listens for the network and the page coming back, and makes a first pass: at once, or once a burst of changes ends. */
  start(afterChange = false) {
    const wake = () => {
      this.store.setOnline(navigator.onLine);
      if (navigator.onLine) {
        this.backoff = 0;
        this.schedule(0);
      }
    };
    window.addEventListener("online", wake);
    window.addEventListener("offline", wake);
    // A phone that suspended the page: pick up where it stopped.
    document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && wake());
    this.schedule(afterChange ? QUIET_MS : 0);
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  schedule(delayMs: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delayMs);
  }

  /** One pass; passes never overlap (an explicit save waits for the background one). */
  run(): Promise<void> {
    if (this.running) return this.running.then(() => this.run());
    this.running = this.pass()
      .then(() => {
        this.backoff = 0;
        this.store.setOnline(navigator.onLine);
        if (waitingOf(this.store.state) > 0 && this.store.state.inspection.status !== "completed")
          this.schedule(QUIET_MS);
      })
      .catch((error) => this.failed(error))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private failed(error: unknown) {
    if (error instanceof ApiError && error.status === 401) {
      handleUnauthorized();
      return;
    }
    // No answer at all (not an HTTP error) is offline too, whatever navigator.onLine says: a dead Wi-Fi, or a
    // page reloaded offline that the browser has not told yet.
    const noAnswer = !(error instanceof ApiError) && !(error instanceof RefusedError);
    this.store.setOnline(navigator.onLine && !noAnswer);
    // Offline: the 'online' event wakes us; otherwise back off, doubling up to 30 s.
    this.backoff = Math.min(MAX_BACKOFF_MS, Math.max(MIN_BACKOFF_MS, this.backoff * 2));
    if (navigator.onLine) this.schedule(this.backoff);
  }

  private async pass() {
    if (!navigator.onLine) throw new Error("offline");
    await this.uploadPhotos();
    await this.sendEntries((e) => isDirty(e) && toSend(e) && !e.error);
    if (this.store.state.inspection.completeRequested) await this.complete();
  }

  private async uploadPhotos() {
    const { entries, photos } = this.store.state;
    const used = new Set([...entries.values()].flatMap((e) => e.photos));
    for (const photo of photos.values()) {
      if (!used.has(photo.clientId) || photo.serverId !== undefined || photo.error || !photo.blob) continue;
      setSending(this.store, [photo.clientId], true);
      try {
        const stored = await uploadPhoto(photo.blob, photo.clientId);
        photoStored(this.store, photo.clientId, stored.id);
      } catch (error) {
        if (isTransient(error) || (error instanceof ApiError && error.status === 401)) throw error;
        photoRefused(this.store, photo.clientId, messageOf(error));
        toast({ title: "Photo not accepted", description: messageOf(error), variant: "destructive" });
      } finally {
        setSending(this.store, [photo.clientId], false);
      }
    }
  }

  /** Sends the chosen entries whose photos are all stored, 5 per call; answers how many were sent. */
  private async sendEntries(pick: (e: LocalEntry) => boolean): Promise<{ sent: number; refusal: string | null }> {
    const ready = [...this.store.state.entries.values()].filter(
      (e) => pick(e) && photosUploaded(e, this.store.state.photos),
    );
    let sent = 0;
    let refusal: string | null = null;
    for (let i = 0; i < ready.length; i += SAVE_CHUNK_SIZE) {
      // Read each entry again: it may have changed while the previous chunk was on its way.
      const chunk = ready.slice(i, i + SAVE_CHUNK_SIZE).map((e) => this.store.state.entries.get(e.key) ?? e);
      const keys = chunk.map((e) => e.key);
      setSending(this.store, keys, true);
      try {
        await apiRequest(
          "POST",
          "/api/inspection-categories",
          chunk.map((e) => entryPayload(e, this.store.state.photos)),
        );
        entriesSaved(
          this.store,
          chunk.map((e) => ({ key: e.key, rev: e.rev })),
        );
        sent += chunk.length;
      } catch (error) {
        if (isTransient(error) || (error instanceof ApiError && error.status === 401)) throw error;
        // Refused (400/404/409): shown on its cards; the other chunks still go.
        refusal ??= messageOf(error);
        entriesRefused(this.store, keys, messageOf(error));
      } finally {
        setSending(this.store, keys, false);
      }
    }
    return { sent, refusal };
  }

  /**
   * 'Save Inspection' / 'Update Inspection': every entry with a score, notes or photos goes out now, in
   * chunks of 5, with the spec's toasts. What cannot go now stays on this device and goes later.
   */
  async saveAll(): Promise<void> {
    // Never alongside a background pass: wait for it, then hold the engine until this save is done.
    while (this.running) await this.running.catch(() => undefined);
    const work = this.saveAllNow();
    this.running = work.finally(() => {
      this.running = null;
    });
    await this.running;
  }

  private async saveAllNow(): Promise<void> {
    try {
      if (!navigator.onLine) throw new Error("offline");
      await this.uploadPhotos();
      const chosen = [...this.store.state.entries.values()].filter(toSend);
      if (chosen.some((e) => !photosUploaded(e, this.store.state.photos)))
        throw new Error("Some photos are still on this device");
      const { sent, refusal } = await this.sendEntries(toSend);
      if (refusal) throw new RefusedError(refusal);
      toast({ title: `Successfully saved ${sent} category assessments` });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return handleUnauthorized();
      toast({
        title: "Failed to save inspection data",
        description: isTransient(error)
          ? "Everything is kept on this device and will be sent when the network allows."
          : messageOf(error),
        variant: "destructive",
      });
      if (isTransient(error)) this.failed(error);
    }
  }

  /** The queued completion: all entries at once, then the inspection is completed (staff-side §4). */
  private async complete() {
    await this.uploadPhotos();
    const { entries, photos } = this.store.state;
    const all = [...entries.values()].filter(hasData);
    if (!all.every((e) => photosUploaded(e, photos))) throw new Error("Some photos are still on this device");
    const keys = all.map((e) => e.key);
    setSending(this.store, keys, true);
    try {
      const inspection = await apiRequest<{ status: string }>(
        "POST",
        "/api/inspection-categories/bulk-complete",
        all.map((e) => entryPayload(e, photos)),
      );
      entriesSaved(
        this.store,
        all.map((e) => ({ key: e.key, rev: e.rev })),
      );
      completed(this.store, inspection.status);
      toast({ title: "Inspection Completed Successfully" });
    } catch (error) {
      if (isTransient(error) || (error instanceof ApiError && error.status === 401)) throw error;
      this.store.requestComplete(false);
      toast({ title: `Failed to complete inspection: ${(error as Error).message}`, variant: "destructive" });
    } finally {
      setSending(this.store, keys, false);
    }
  }
}
