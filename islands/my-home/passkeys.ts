// My Home passkeys: sign in with a passkey on /my-home/sign-in, add or remove one on the
// Account page. Plain DOM, its own Vite entry (src/http/assets.ts `passkeysJs`): only the pages that show
// passkey controls load it (3.4 KB gzip). Without WebAuthn the controls stay hidden and the e-mail link
// remains the way in.
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";

async function call(path: string, init: { method?: string; body?: unknown } = {}): Promise<Record<string, unknown>> {
  const response = await fetch(path, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  const data = response.status === 204 ? {} : ((await response.json().catch(() => ({}))) as Record<string, unknown>);
  if (!response.ok)
    throw new Error(typeof data.message === "string" ? data.message : "Something went wrong. Please try again.");
  return data;
}

function showError(root: HTMLElement, error: unknown) {
  const box = root.querySelector<HTMLElement>("[data-passkey-error]");
  if (!box) return;
  // A dismissed browser prompt is not an error worth shouting about.
  const cancelled = error instanceof Error && error.name === "NotAllowedError";
  box.textContent = cancelled
    ? "The passkey prompt was closed. Try again, or use the e-mail link."
    : error instanceof Error
      ? error.message
      : String(error);
  box.hidden = false;
}

function signIn(root: HTMLElement) {
  root.hidden = false;
  root.querySelector<HTMLButtonElement>("[data-passkey-button]")?.addEventListener("click", async (event) => {
    const button = event.currentTarget as HTMLButtonElement;
    button.disabled = true;
    try {
      const optionsJSON = await call("/api/my-home/passkey-sign-in/options");
      const response = await startAuthentication({ optionsJSON: optionsJSON as never });
      const { redirect } = await call("/api/my-home/passkey-sign-in", { body: { response, next: root.dataset.next } });
      location.assign(typeof redirect === "string" ? redirect : "/my-home");
    } catch (error) {
      showError(root, error);
      button.disabled = false;
    }
  });
}

function manage(root: HTMLElement) {
  const add = root.querySelector<HTMLElement>("[data-passkey-add]");
  if (add) add.hidden = false;
  root.querySelector<HTMLButtonElement>("[data-passkey-button]")?.addEventListener("click", async (event) => {
    const button = event.currentTarget as HTMLButtonElement;
    button.disabled = true;
    try {
      const optionsJSON = await call("/api/my-home/passkeys/options");
      const response = await startRegistration({ optionsJSON: optionsJSON as never });
      const name = root.querySelector<HTMLInputElement>("[data-passkey-name]")?.value || "Passkey";
      await call("/api/my-home/passkeys", { body: { response, name } });
      location.reload();
    } catch (error) {
      showError(root, error);
      button.disabled = false;
    }
  });
  for (const remove of root.querySelectorAll<HTMLButtonElement>("[data-passkey-delete]")) {
    remove.addEventListener("click", async () => {
      remove.disabled = true;
      try {
        await call(`/api/my-home/passkeys/${remove.dataset.passkeyDelete}`, { method: "DELETE" });
        remove.closest("li")?.remove();
      } catch (error) {
        showError(root, error);
        remove.disabled = false;
      }
    });
  }
}

if (browserSupportsWebAuthn()) {
  for (const root of document.querySelectorAll<HTMLElement>("[data-passkey]")) {
    if (root.dataset.passkey === "sign-in") signIn(root);
    else if (root.dataset.passkey === "manage") manage(root);
  }
}
