import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Store = typeof import("./toast.js");
let store: Store;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  store = await import("./toast.js");
});
afterEach(() => vi.useRealTimers());

describe("toast store", () => {
  it("keeps one toast at a time: the newest replaces the last", () => {
    store.toast({ title: "First" });
    store.toast({ title: "Second", variant: "destructive" });
    expect(store.getToasts().map((t) => [t.title, t.variant, t.open])).toEqual([["Second", "destructive", true]]);
  });

  it("closes a dismissed toast at once and removes it after the removal delay", () => {
    const { id, dismiss } = store.toast({ title: "Saved" });
    dismiss();
    expect(store.getToasts()).toEqual([expect.objectContaining({ id, open: false })]);
    vi.advanceTimersByTime(store.TOAST_REMOVE_DELAY - 1);
    expect(store.getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getToasts()).toEqual([]);
  });

  it("has the spec's constants", () => {
    expect(store.TOAST_LIMIT).toBe(1);
    expect(store.TOAST_DURATION).toBe(5000);
    expect(store.TOAST_REMOVE_DELAY).toBe(1_000_000);
    expect(store.SWIPE_THRESHOLD).toBe(50);
    expect(store.TOAST_HOTKEY).toBe("F8");
  });
});
