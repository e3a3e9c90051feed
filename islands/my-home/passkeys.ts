// My Home passkeys: sign in with a passkey on /my-home/sign-in, add or remove one on the
// Account page. Plain DOM, its own Vite entry (src/http/assets.ts `passkeysJs`): only the pages that show
// passkey controls load it (3.4 KB gzip). Without WebAuthn the controls stay hidden and the e-mail link
// remains the way in. The list and calls are shared with staff's passkeys (islands/ui/passkeys.ts).
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { callJson, managePasskeys, showPasskeyError } from "../ui/passkeys";

const CANCELLED = "The passkey prompt was closed. Try again, or use the e-mail link.";
/** The page says it in its own language (data-cancelled, from the catalogue). */
const cancelledOf = (root: HTMLElement) => root.dataset.cancelled || CANCELLED;

function signIn(root: HTMLElement) {
  root.hidden = false;
  root.querySelector<HTMLButtonElement>("[data-passkey-button]")?.addEventListener("click", async (event) => {
    const button = event.currentTarget as HTMLButtonElement;
    button.disabled = true;
    try {
      const optionsJSON = await callJson("/api/my-home/passkey-sign-in/options");
      const response = await startAuthentication({ optionsJSON: optionsJSON as never });
      const { redirect } = await callJson("/api/my-home/passkey-sign-in", {
        body: { response, next: root.dataset.next },
      });
      location.assign(typeof redirect === "string" ? redirect : "/my-home");
    } catch (error) {
      showPasskeyError(root, error, cancelledOf(root));
      button.disabled = false;
    }
  });
}

if (browserSupportsWebAuthn()) {
  for (const root of document.querySelectorAll<HTMLElement>("[data-passkey]")) {
    if (root.dataset.passkey === "sign-in") signIn(root);
    else if (root.dataset.passkey === "manage")
      managePasskeys(root, {
        options: "/api/my-home/passkeys/options",
        add: "/api/my-home/passkeys",
        cancelled: cancelledOf(root),
        afterAdd: () => location.reload(),
        afterRemove: (item) => item?.remove(),
      });
  }
}
