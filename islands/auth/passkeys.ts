// Staff passkeys, the second step of sign-in (docs/decisions.md#38): add or remove one on
// /admin/account/two-step, and "Use your passkey" on /login once the password was right. Plain DOM, its own Vite
// entry (src/http/assets.ts `staffPasskeysJs`), loaded by those two pages only; the list and calls are shared with
// My Home's (islands/ui/passkeys.ts). Without WebAuthn the controls stay hidden and say so.
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { managePasskeys, showPasskeyError } from "../ui/passkeys";

const CANCELLED = "The passkey prompt was closed. Try again when you are ready.";
const PAGE = "/admin/account/two-step";

/**
 * The login page's second step: the 401 page carries the options of a challenge issued to this person. The
 * browser's answer goes into the form's `passkey` field and the form is sent again with the password.
 */
function signIn(root: HTMLElement) {
  const form = root.closest("form");
  const button = root.querySelector<HTMLButtonElement>("[data-passkey-button]");
  const answer = form?.querySelector<HTMLInputElement>("[data-passkey-answer]");
  if (!form || !button || !answer) return;
  button.hidden = false;
  for (const note of root.querySelectorAll<HTMLElement>("[data-passkey-unsupported]")) note.hidden = true;
  // Enter in the password field uses the passkey too, unless an app's code was typed instead.
  form.addEventListener("submit", (event) => {
    const code = form.querySelector<HTMLInputElement>("#code");
    if (answer.value || code?.value.trim()) return;
    event.preventDefault();
    button.click();
  });
  button.addEventListener("click", async () => {
    const password = form.querySelector<HTMLInputElement>("#password");
    if (password && !password.value) {
      showPasskeyError(root, new Error("Enter your password again, then use your passkey."), CANCELLED);
      password.focus();
      return;
    }
    button.disabled = true;
    try {
      const optionsJSON = JSON.parse(root.dataset.options ?? "{}");
      const response = await startAuthentication({ optionsJSON });
      answer.value = JSON.stringify(response);
      form.submit();
    } catch (error) {
      showPasskeyError(root, error, CANCELLED);
      button.disabled = false;
    }
  });
}

if (browserSupportsWebAuthn()) {
  for (const root of document.querySelectorAll<HTMLElement>("[data-passkey]")) {
    if (root.dataset.passkey === "staff-sign-in") signIn(root);
    else if (root.dataset.passkey === "staff-manage")
      managePasskeys(root, {
        options: "/api/auth/passkeys/options",
        add: "/api/auth/passkeys",
        cancelled: CANCELLED,
        confirmRemoval: true,
        afterAdd: () => location.assign(`${PAGE}?done=passkey-add`),
        afterRemove: () => location.assign(`${PAGE}?done=passkey-remove`),
      });
  }
}
