// /pricing's plan buttons: a form that posts to /checkout/start without script; with script it asks
// the API for a checkout session and follows its url (customer-side §7, §8). The home's postal code, when typed,
// goes with the plan so the hosted checkout shows that province's tax before its pay button (docs/decisions.md#32).
import { POSTAL_CODE_MESSAGE, homePostalCode } from "../../src/modules/payments/checkout.constants";

const FAILED = "Error creating checkout session. Please try again.";

/** The postal code field's value: '' when blank, the code when valid; null (and the field marked) when not. */
function postalCode(): string | null {
  const input = document.querySelector<HTMLInputElement>("[data-postal-input]");
  const error = document.querySelector<HTMLElement>("[data-postal-error]");
  if (!input) return "";
  const typed = input.value.trim();
  const code = typed ? homePostalCode(typed) : "";
  if (code === null) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
  input.setAttribute(
    "aria-describedby",
    code === null ? "pricing-postal-error pricing-postal-hint" : "pricing-postal-hint",
  );
  if (error) {
    error.textContent = code === null ? POSTAL_CODE_MESSAGE : "";
    error.hidden = code !== null;
  }
  if (code === null) {
    input.focus();
    return null;
  }
  if (code) input.value = code;
  return code;
}

document.addEventListener("submit", async (event) => {
  const form =
    event.target instanceof HTMLFormElement && event.target.matches("form[data-checkout-form]") ? event.target : null;
  if (!form || event.defaultPrevented) return;
  event.preventDefault();
  const code = postalCode();
  if (code === null) return;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit], button:not([type])");
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
    alert(FAILED);
    if (button) button.disabled = false;
  }
});
