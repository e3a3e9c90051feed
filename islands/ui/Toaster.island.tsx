import { useEffect } from "react";
import { lazyPart, useLazy } from "./lazy";
import { TOAST_HOTKEY, type ToastInput, toast, useToasts } from "./toast";

// The viewport and its toasts are a chunk of their own, fetched with the page's first toast: most visits show none,
// and this island comes with the loader on every island page (docs/decisions.md#79).
const viewport = lazyPart(() => import("./ToastViewport").then((m) => m.ToastViewport));

/** The page's toasts (customer-side §9): the server's, passed as `initial`, and any an island raises. */
export default function Toaster({ initial = [] }: { initial?: ToastInput[] }) {
  const toasts = useToasts();
  useEffect(() => {
    for (const t of initial) toast(t);
  }, [initial]);
  const Viewport = useLazy(viewport, toasts.length > 0 || viewport.loaded !== null);
  return <section aria-label={`Notifications (${TOAST_HOTKEY})`}>{Viewport && <Viewport />}</section>;
}
