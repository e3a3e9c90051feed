/** Routes where the public navigation is hidden (customer-side §2.1, staff-side §2). */
const NAV_HIDDEN = new Set([
  "/checkout",
  "/payment-success",
  "/property-intake",
  "/free-report",
  "/book-inspection",
  "/booking-confirmation",
  "/onboarding",
  "/onboarding-flow",
  "/login",
  "/admin",
  "/client-report",
]);
const NAV_HIDDEN_PREFIXES = ["/admin/", "/client-report/", "/quote-report/"];

export function isNavVisible(path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  if (NAV_HIDDEN.has(clean)) return false;
  return !NAV_HIDDEN_PREFIXES.some((prefix) => clean.startsWith(prefix));
}
