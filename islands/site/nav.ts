/** The bar turns translucent once the page has scrolled past 20 px (customer-side §9). */
export function translucentNav(): void {
  const nav = document.querySelector<HTMLElement>("[data-site-nav]");
  if (!nav) return;
  const update = () => nav.setAttribute("data-scrolled", String(window.scrollY > 20));
  update();
  window.addEventListener("scroll", update, { passive: true });
}

/** A link marked data-popup opens in a popup window; without script it is an ordinary link. */
export function popupLinks(): void {
  document.addEventListener("click", (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>("a[data-popup]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const popup = window.open(link.href, "haven-sample-report", "popup,width=1100,height=850");
    if (popup) event.preventDefault();
  });
}

/** `<details name=…>` is exclusive natively in current browsers; this keeps older ones to one open too. */
export function exclusiveDetails(): void {
  document.addEventListener(
    "toggle",
    (event) => {
      const opened = event.target as HTMLDetailsElement;
      const group = opened.getAttribute?.("name");
      if (!opened.open || !group) return;
      for (const other of document.querySelectorAll<HTMLDetailsElement>(`details[name="${group}"][open]`)) {
        if (other !== opened) other.open = false;
      }
    },
    true,
  );
}
