// The admin shell's script (islands/admin.ts, loaded only on pages in the admin shell): htmx for refresh, search,
// pagination and details; the phone menu; the details dialog; Logout; and the session-expiry notice.
// Every page also works without it: links and forms are plain links and forms.
import { logout, sendToLogin } from "../ui/session";
import { refusalMessage } from "./refusal";

const HTMX_ATTRIBUTES = ["hx-get", "hx-post", "hx-put", "hx-patch", "hx-delete", "hx-boost"]
  .map((a) => `[${a}]`)
  .join(",");

/**
 * htmx (18 KB gzip) loads only on pages that use it, so island pages (the inspection form, the calendar)
 * stay within their JS budget. Loaded lazily it arrives after DOMContentLoaded and must be started by hand.
 */
async function startHtmx(): Promise<void> {
  if (window.onpopstate || !document.querySelector(HTMX_ATTRIBUTES)) return;
  const { default: htmx } = await import("htmx.org");
  htmx.process(document.body);
  // No page snapshots are kept (htmx-config in the layout): going back reloads the page from the server.
  window.onpopstate = (event) => {
    if ((event.state as { htmx?: boolean } | null)?.htmx) window.location.reload();
  };
}

/** A small notice in the corner, like the islands' toasts, for pages without React: red, or green for a success. */
function notice(title: string, description: string, variant?: "success"): void {
  const box = document.createElement("div");
  box.className = variant === "success" ? "admin-toast admin-toast-success" : "admin-toast";
  box.setAttribute("role", "alert");
  box.dataset.testid = "toast";
  const heading = document.createElement("p");
  heading.className = "font-semibold";
  heading.textContent = title;
  box.append(heading);
  if (description) {
    const text = document.createElement("p");
    text.textContent = description;
    box.append(text);
  }
  document.body.append(box);
  // In the top layer, so that a toast raised from an open modal dialog (the share dialog) shows above its backdrop.
  if ("showPopover" in box) {
    box.popover = "manual";
    box.showPopover();
  }
  setTimeout(() => box.remove(), 5000);
}

/** The phone menu (<details>): Escape closes it and gives focus back to the button; so does a click outside. */
function menu(): void {
  const details = document.querySelector<HTMLDetailsElement>("[data-admin-menu]");
  if (!details) return;
  const close = (focus: boolean) => {
    if (!details.open) return;
    details.open = false;
    if (focus) details.querySelector("summary")?.focus();
  };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close(details.contains(document.activeElement));
  });
  document.addEventListener("click", (event) => {
    if (!details.contains(event.target as Node)) close(false);
  });
}

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
function sessionExpiry(): void {
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

/** Logout calls the server, clears cached data and goes to /, even when the call fails (staff-side §4). */
function logoutButton(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>("[data-logout-form]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const button = form.querySelector("button");
      button?.setAttribute("disabled", "");
      // Unsent inspection changes: the user may choose to stay, and the button works again.
      void logout().then((left) => left || button?.removeAttribute("disabled"));
    });
  }
}

export function adminShell(): void {
  menu();
  detailsDialog();
  focusResults();
  sessionExpiry();
  logoutButton();
  // The share dialog's code comes only to pages that have the dialog (the reports), in a chunk of its own: the
  // other staff pages, the inspection form among them, stay within their JS budget (docs/decisions.md#79).
  const sharing = document.querySelector("[data-share-dialog]")
    ? import("./share-dialog").then((m) => m.shareDialog(notice))
    : null;
  // Browser tests wait for this before they use htmx or the share dialog.
  void Promise.allSettled([startHtmx(), sharing]).then(() => {
    document.documentElement.dataset.adminReady = "true";
  });
}
