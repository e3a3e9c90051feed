import { beforeEach, describe, expect, it, vi } from "vitest";

// The islands' one GET store (islands/ui/data.ts), read without React through loadData and peekData; the hooks
// are thin readers of the same entries. The loader is a parameter: each test passes one that counts its calls.
type Store = typeof import("./data.js");
let store: Store;

beforeEach(async () => {
  vi.resetModules();
  store = await import("./data.js");
});

/** A loader that answers `answers` in turn (an Error rejects) and counts its calls. */
function loader(...answers: unknown[]) {
  const calls: string[] = [];
  const load = async (url: string) => {
    const answer = answers[Math.min(calls.length, answers.length - 1)];
    calls.push(url);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { load, calls };
}

describe("the islands' data store", () => {
  it("asks once per URL and keeps the answer for the page's life (never stale by itself)", async () => {
    const { load, calls } = loader({ n: 1 }, { n: 2 });
    const [a, b] = await Promise.all([store.loadData("/api/x", load), store.loadData("/api/x", load)]);
    expect(a).toEqual({ n: 1 });
    expect(b).toBe(a);
    expect(await store.loadData("/api/x", load)).toEqual({ n: 1 });
    expect(calls).toEqual(["/api/x"]);
    expect(store.peekData("/api/x")).toEqual({ data: { n: 1 }, error: null, fetching: false });
  });

  it("does not retry a failure, and keeps the error until the URL is asked again after refresh()", async () => {
    const { load, calls } = loader(new Error("500: down"), { ok: true });
    await expect(store.loadData("/api/y", load)).rejects.toThrow("500: down");
    await expect(store.loadData("/api/y", load)).rejects.toThrow("500: down");
    expect(calls).toHaveLength(1);
    // No reader on screen: refresh() only marks it, and the next read asks again.
    await store.refresh("/api/y");
    expect(calls).toHaveLength(1);
    expect(await store.loadData("/api/y", load)).toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it("refresh() without a URL marks every answer, and the old data stays until the new one comes", async () => {
    const first = loader("a1", "a2");
    const second = loader("b1", "b2");
    await store.loadData("/api/a", first.load);
    await store.loadData("/api/b", second.load);
    await store.refresh();
    expect(store.peekData("/api/a").data).toBe("a1");
    expect(await store.loadData("/api/a", first.load)).toBe("a2");
    expect(await store.loadData("/api/b", second.load)).toBe("b2");
  });

  it("setData replaces an answer (a value or an update of the old one) without asking", async () => {
    const { load, calls } = loader({ days: [1, 2] });
    await store.loadData("/api/free", load);
    store.setData<{ days: number[] }>("/api/free", (old) => (old ? { days: [...old.days, 3] } : old));
    expect(await store.loadData("/api/free", load)).toEqual({ days: [1, 2, 3] });
    store.setData("/api/other", { days: [] });
    expect(await store.loadData("/api/other", load)).toEqual({ days: [] });
    expect(calls).toEqual(["/api/free"]);
  });
});
