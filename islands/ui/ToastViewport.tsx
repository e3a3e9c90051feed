import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { SWIPE_THRESHOLD, TOAST_DURATION, TOAST_HOTKEY, type Toast, dismiss, useToasts } from "./toast";

/**
 * The one toast viewport of a page: top on small screens, bottom-right from md up. Toaster.island.tsx shows it from
 * the page's first toast on.
 */
export function ToastViewport() {
  const toasts = useToasts();
  const viewport = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) {
        event.preventDefault();
        viewport.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // A modal <dialog> sits in the top layer, above any z-index: the viewport is a manual popover so it
  // joins the top layer too, and is shown again (on top) whenever a dialog opens or a toast appears.
  useEffect(() => {
    if (toasts.some((t) => t.open)) raise(viewport.current);
  }, [toasts]);
  useEffect(() => {
    const observer = new MutationObserver((records) => {
      if (records.some((r) => r.target instanceof HTMLDialogElement && r.target.open)) raise(viewport.current);
    });
    observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["open"] });
    return () => observer.disconnect();
  }, []);

  return (
    <>
      {/* Empty or not, the viewport never catches a tap: only its toasts do (pointer-events-auto).
          On a wide screen toasts sit bottom right, except over the inspection form's sticky bar, whose
          buttons they would cover: there they sit top right, under the 3.75rem header. */}
      <ol
        ref={viewport}
        tabIndex={-1}
        popover="manual"
        data-testid="toast-viewport"
        className="toast-viewport pointer-events-none fixed top-0 right-0 bottom-auto left-0 z-[100] m-0 flex h-auto w-auto max-w-none flex-col gap-2 overflow-visible border-0 bg-transparent p-4 outline-none md:top-auto md:bottom-0 md:left-auto md:w-full md:max-w-[420px] md:[body:has(.sticky-progress)_&]:top-[3.75rem] md:[body:has(.sticky-progress)_&]:bottom-auto"
      >
        {toasts
          .filter((t) => t.open)
          .map((t) => (
            <ToastItem key={t.id} toast={t} />
          ))}
      </ol>
    </>
  );
}

function ToastItem({ toast: t }: { toast: Toast }) {
  const [offset, setOffset] = useState(0);
  const [paused, setPaused] = useState(false);
  const start = useRef<number | null>(null);
  const destructive = t.variant === "destructive";

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => dismiss(t.id), t.duration ?? TOAST_DURATION);
    return () => clearTimeout(timer);
  }, [t.id, t.duration, paused]);

  const onPointerDown = (event: ReactPointerEvent) => {
    // Capturing the pointer would steal the close button's click.
    if ((event.target as Element).closest("button")) return;
    start.current = event.clientX;
    (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
  };
  const onPointerUp = () => {
    if (offset >= SWIPE_THRESHOLD) dismiss(t.id);
    start.current = null;
    setOffset(0);
  };

  return (
    <li
      data-variant={t.variant ?? "default"}
      data-testid="toast"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      style={{ transform: offset ? `translateX(${offset}px)` : undefined, touchAction: "pan-y" }}
      className={`pointer-events-auto relative flex w-full items-start justify-between gap-3 rounded-lg border p-4 pr-10 shadow-lg ${
        // Green for success, red for failure: no other colours.
        destructive ? "border-red-800 bg-red-700 text-white" : "border-green-900 bg-green-800 text-white"
      }`}
    >
      <div
        className="grid gap-1"
        role={destructive ? "alert" : "status"}
        aria-live={destructive ? "assertive" : "polite"}
        aria-atomic="true"
      >
        <p className="text-sm font-semibold">{t.title}</p>
        {t.description && <p className="text-sm opacity-90">{t.description}</p>}
      </div>
      <button
        type="button"
        onClick={() => dismiss(t.id)}
        aria-label="Close notification"
        className="absolute top-2 right-2 rounded p-1 opacity-80 hover:opacity-100"
      >
        <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </li>
  );
}

/** Puts the viewport on top of the top layer (above an open modal dialog); a no-op without popover support. */
function raise(el: HTMLElement | null) {
  if (!el || typeof el.showPopover !== "function") return;
  if (el.matches(":popover-open")) el.hidePopover();
  el.showPopover();
}
