// The admin shell's script (islands/admin.ts, loaded only on pages in the admin shell): htmx for refresh, search,
// pagination and details; the phone menu; the details dialog; Logout; and the session-expiry notice.
// Every page also works without it: links and forms are plain links and forms.

const HTMX_ATTRIBUTES = ["hx-get", "hx-post", "hx-put", "hx-patch", "hx-delete", "hx-boost"]
  .map((a) => `[${a}]`)
  .join(",");

/**
 * htmx (18 KB gzip) loads only on pages that use it, so island pages (the inspection form, the calendar)
 * stay within their JS budget. Loaded lazily it arrives after DOMContentLoaded and must be started by hand.
 */
async function startHtmx(): Promise<void> {
  if (window.onpopstate || !document.querySelector(HTMX_ATTRIBUTES)) return;
  const [{ default: htmx }, { htmxBehaviours }] = await Promise.all([import("htmx.org"), import("./admin-htmx")]);
  htmxBehaviours(notice);
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

/** Logout calls the server, clears cached data and goes to /, even when the call fails (staff-side §4). */
function logoutButton(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>("[data-logout-form]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const button = form.querySelector("button");
      button?.setAttribute("disabled", "");
      // Unsent inspection changes: the user may choose to stay, and the button works again. Logout's code is a
      // chunk of its own, usually here already (fetched on the first touch); offline and not kept, the button
      // works again and the connection notice says why.
      import("../ui/logout")
        .then(({ logout }) => logout())
        .then(
          (left) => left || button?.removeAttribute("disabled"),
          () => {
            button?.removeAttribute("disabled");
            notice("Connection problem", "Haven could not be reached. Check your connection and try again.");
          },
        );
    });
    const fetchEarly = () => void import("../ui/logout").catch(() => undefined);
    form.addEventListener("pointerover", fetchEarly, { once: true });
    form.addEventListener("focusin", fetchEarly, { once: true });
  }
}

export function adminShell(): void {
  menu();
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
