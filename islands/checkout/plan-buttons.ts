// /pricing's plan buttons: a form that posts to /checkout/start without script; with script it asks
// the API for a checkout session and follows its url (customer-side §7, §8). The home's postal code, when typed,
// goes with the plan so the hosted checkout shows that province's tax before its pay button (docs/decisions.md#32).
// The page carries the postal code rule (the field's pattern) and its sentences (views/pages/pricing.ejs): no copy of
// them here, so the page's JS stays within 2 KB gzip (docs/architecture.md).

/** The postal code field's value: '' when blank, the code when valid; null (and the field marked) when not. */
function postalCode(): string | null {
  // This script is /pricing's alone, which has both.
  const input = document.querySelector<HTMLInputElement>("[data-postal-input]")!;
  const error = document.querySelector<HTMLElement>("[data-postal-error]")!;
  const typed = input.value.trim();
  // 'k1s2b4' or 'K1S-2B4' → 'K1S 2B4', as checkout.constants' homePostalCode writes it.
  const code = !typed ? "" : input.checkValidity() ? `${typed.slice(0, 3)} ${typed.slice(-3)}`.toUpperCase() : null;
  input.ariaInvalid = String(code === null);
  // The error describes the field only while it has its sentence.
  error.textContent = code === null ? error.dataset.text! : "";
  if (code === null) {
    input.focus();
    return null;
  }
  if (code) input.value = code;
  return code;
}

document.addEventListener("submit", async (event) => {
  // A submit event's target is the form.
  const form = event.target as HTMLFormElement;
  if (!form.matches("[data-checkout-form]")) return;
  event.preventDefault();
  const code = postalCode();
  if (code === null) return;
  // Each plan's form has its one button.
  const button = form.querySelector("button");
  if (button) button.disabled = true;
  try {
    const response = await fetch("/api/create-checkout-session", {
      method: "POST",
      credentials: "include",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        // The page's language: the checkout session's pages open in it (src/i18n/api-locale.ts).
        "Accept-Language": document.documentElement.lang === "fr-CA" ? "fr-CA" : "en-CA",
      },
      body: JSON.stringify({ planType: new FormData(form).get("planType"), ...(code ? { postalCode: code } : {}) }),
    });
    if (!response.ok) throw new Error(`${response.status}: ${(await response.text()) || response.statusText}`);
    const { url } = (await response.json()) as { url: string };
    window.location.href = url;
  } catch (error) {
    console.error(error);
    // The spec's alert, in the page's language (views/pages/pricing.ejs).
    alert(document.querySelector<HTMLElement>("[data-failed]")?.dataset.failed);
    if (button) button.disabled = false;
  }
});
