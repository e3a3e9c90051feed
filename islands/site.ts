// The only script on marketing pages: plain DOM, no framework (budget: 3 KB gzip for the site).
const nav = document.querySelector<HTMLElement>("[data-site-nav]");
if (nav) {
  // The bar turns translucent once the page has scrolled past 20 px (customer-side §9).
  const update = () => nav.setAttribute("data-scrolled", String(window.scrollY > 20));
  update();
  window.addEventListener("scroll", update, { passive: true });
}

// A link marked data-popup opens in a popup window; without script it is an ordinary link.
document.addEventListener("click", (event) => {
  const link = (event.target as Element).closest<HTMLAnchorElement>("a[data-popup]");
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const popup = window.open(link.href, "haven-sample-report", "popup,width=1100,height=850");
  if (popup) event.preventDefault();
});
