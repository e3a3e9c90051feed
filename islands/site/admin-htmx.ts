// The admin shell's behaviours that only htmx's requests set off (the details dialog, focus after a swap, a refused or
// failed fragment request), fetched with htmx by islands/site/admin.ts on pages that use htmx: the inspection form
// and the other island pages load neither (docs/decisions.md#79).
import { sendToLogin } from "../ui/session";
import { refusalMessage } from "./refusal";

/** A notice in the corner (admin.ts): red, or green for a success. */
type Notify = (title: string, description: string, variant?: "success") => void;

/**
 * 'View Details' (and the bookings desk's 'Reschedule') opens the dialog at once with a spinner; htmx then swaps
 * the details in. A form in it marked data-close-on-success closes it once its change is made.
 */
function detailsDialog(): void {
  const dialog = document.querySelector<HTMLDialogElement>("[data-property-dialog], [data-details-dialog]");
  if (!dialog) return;
  const body = dialog.querySelector<HTMLElement>("#property-dialog-body, [data-dialog-body]")!;
  document.body.addEventListener("htmx:afterRequest", (event) => {
    const { elt, successful } = (event as CustomEvent<{ elt: Element; successful: boolean }>).detail;
    if (successful && dialog.contains(elt) && elt.closest("[data-close-on-success]")) dialog.close();
  });
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    const elt = (event as CustomEvent<{ elt: Element }>).detail.elt;
    if (!elt.closest("[data-open-details]")) return;
    body.innerHTML =
      '<div class="flex justify-center py-16" role="status"><span class="spinner" aria-hidden="true"></span><span class="sr-only">Loading details</span></div>';
    if (!dialog.open) dialog.showModal();
  });
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener("close", () => body.replaceChildren());
}

/**
 * After the pager or the refresh button replaced the results, keyboard focus goes to the results' heading; after
 * a change answered in words (the bookings desk), to those words.
 */
function focusResults(): void {
  document.body.addEventListener("htmx:afterSettle", (event) => {
    const elt = (event as CustomEvent<{ requestConfig?: { elt?: Element } }>).detail.requestConfig?.elt;
    if (elt?.closest(".pager, [data-refresh]")) document.getElementById("results-heading")?.focus();
    else if (elt?.closest("[data-focus-answer]")) document.querySelector<HTMLElement>("[data-answer]")?.focus();
  });
}

/**
 * A fragment request whose session ended gets 401: the same notice and redirect as an island's call. Any other
 * refusal shows the server's message (a role's 403 says what the role cannot do).
 */
function sessionExpiry(notice: Notify): void {
  document.body.addEventListener("htmx:responseError", (event) => {
    const xhr = (event as CustomEvent<{ xhr: XMLHttpRequest }>).detail.xhr;
    if (xhr.status === 401) sendToLogin(notice);
    else
      notice(
        xhr.status >= 500 ? "Something went wrong" : "Request refused",
        refusalMessage(xhr.status, xhr.getResponseHeader("Content-Type"), xhr.responseText),
      );
  });
  document.body.addEventListener("htmx:sendError", () =>
    notice("Connection problem", "Haven could not be reached. Check your connection and try again."),
  );
}

/** Wires them before htmx processes the page, so that no request goes before its listeners. */
export function htmxBehaviours(notice: Notify): void {
  detailsDialog();
  focusResults();
  sessionExpiry(notice);
}
