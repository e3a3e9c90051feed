// The sync engine (sync.ts) is a chunk of its own, fetched and started only once something waits to be sent: a form
// opened with nothing unsent shows without it (the JS budget, docs/decisions.md#79). Until then this keeps the form's
// online flag and watches for work; the service worker keeps the chunk for offline use.
import { lazyPart } from "../ui/lazy";
import { waitingOf } from "./model";
import type { FormStore } from "./store";
import type { SyncEngine } from "./sync";

export const syncPart = lazyPart(() => import("./sync").then((m) => m.SyncEngine));

export class BackgroundSync {
  private engine: SyncEngine | null = null;
  private stopped = false;

  constructor(private readonly store: FormStore) {}

  /** Before the engine comes: the online flag, and the engine fetched once the network is back with work waiting. */
  private readonly watch = () => {
    if (this.engine) return;
    this.store.setOnline(navigator.onLine);
    if (navigator.onLine && document.visibilityState === "visible") this.whenWaiting();
  };

  private whenWaiting() {
    if (waitingOf(this.store.state) > 0) this.ready().catch(() => undefined);
  }

  start() {
    // A change fetches the engine; it then sends once the burst of changes ends. Offline with no worker yet, the fetch
    // fails: the change is in IndexedDB, and the next change or the network coming back tries again.
    this.store.onLocalChange = () => void this.ready(true).catch(() => undefined);
    window.addEventListener("online", this.watch);
    window.addEventListener("offline", this.watch);
    document.addEventListener("visibilitychange", this.watch);
    this.whenWaiting();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.watch);
    window.removeEventListener("offline", this.watch);
    document.removeEventListener("visibilitychange", this.watch);
    this.engine?.stop();
  }

  /** The engine, fetched and started on first need (`afterChange`: its first pass waits for the burst to end). */
  async ready(afterChange = false): Promise<SyncEngine> {
    const Engine = await syncPart.preload();
    if (!this.engine) {
      this.engine = new Engine(this.store);
      if (this.stopped) this.engine.stop();
      else this.engine.start(afterChange);
    }
    return this.engine;
  }
}
