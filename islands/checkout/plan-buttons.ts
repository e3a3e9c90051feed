// /pricing's plan buttons: a form that posts to /checkout/start without script; with script it asks
// the API for a checkout session and follows its url (customer-side §7, §8).
const FAILED = "Error creating checkout session. Please try again.";

document.addEventListener("submit", async (event) => {
  const form =
    event.target instanceof HTMLFormElement && event.target.matches("form[data-checkout-form]") ? event.target : null;
  if (!form || event.defaultPrevented) return;
  event.preventDefault();
  const button = form.querySelector<HTMLButtonElement>("button[type=submit], button:not([type])");
  if (button) button.disabled = true;
  try {
    const response = await fetch("/api/create-checkout-session", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ planType: new FormData(form).get("planType") }),
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
