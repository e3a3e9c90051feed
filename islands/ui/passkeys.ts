// What both passkey scripts share (homeowners' islands/my-home/passkeys.ts, staff's islands/auth/passkeys.ts):
// JSON calls, the error line, and the list a signed-in person adds passkeys to and removes them from. Plain DOM:
// each page that shows passkey controls loads its own small entry.
import { startRegistration } from "@simplewebauthn/browser";

export async function callJson(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Record<string, unknown>> {
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

/** Shows an error in the root's `[data-passkey-error]` line; a closed browser prompt gets `cancelled` instead. */
export function showPasskeyError(root: HTMLElement, error: unknown, cancelled: string): void {
  const box = root.querySelector<HTMLElement>("[data-passkey-error]");
  if (!box) return;
  // A dismissed browser prompt is not an error worth shouting about.
  const closed = error instanceof Error && error.name === "NotAllowedError";
  box.textContent = closed ? cancelled : error instanceof Error ? error.message : String(error);
  box.hidden = false;
}

export interface PasskeyListApi {
  /** POST: registration options. */
  options: string;
  /** POST { response, name }: adds it; `${add}/${id}` DELETE removes one. */
  add: string;
  cancelled: string;
  /** Ask before removing one (`data-passkey-label` on the button names it). */
  confirmRemoval?: boolean;
  afterAdd: () => void;
  afterRemove: (item: HTMLElement | null) => void;
}

/**
 * The signed-in person's passkeys: `[data-passkey-add]` (shown once WebAuthn is there) holds the name field
 * (`[data-passkey-name]`) and the add button (`[data-passkey-button]`); each `[data-passkey-delete=id]` removes one.
 */
export function managePasskeys(root: HTMLElement, api: PasskeyListApi): void {
  const add = root.querySelector<HTMLElement>("[data-passkey-add]");
  if (add) add.hidden = false;
  for (const note of root.querySelectorAll<HTMLElement>("[data-passkey-unsupported]")) note.hidden = true;
  root.querySelector<HTMLButtonElement>("[data-passkey-button]")?.addEventListener("click", async (event) => {
    const button = event.currentTarget as HTMLButtonElement;
    button.disabled = true;
    try {
      const optionsJSON = await callJson(api.options);
      const response = await startRegistration({ optionsJSON: optionsJSON as never });
      const name = root.querySelector<HTMLInputElement>("[data-passkey-name]")?.value.trim() || "Passkey";
      await callJson(api.add, { body: { response, name } });
      api.afterAdd();
    } catch (error) {
      showPasskeyError(root, error, api.cancelled);
      button.disabled = false;
    }
  });
  for (const remove of root.querySelectorAll<HTMLButtonElement>("[data-passkey-delete]")) {
    remove.addEventListener("click", async () => {
      const label = remove.dataset.passkeyLabel ?? "this passkey";
      if (api.confirmRemoval && !window.confirm(`Remove the passkey "${label}"? You can add it again later.`)) return;
      remove.disabled = true;
      try {
        await callJson(`${api.add}/${remove.dataset.passkeyDelete}`, { method: "DELETE" });
        api.afterRemove(remove.closest("li"));
      } catch (error) {
        showPasskeyError(root, error, api.cancelled);
        remove.disabled = false;
      }
    });
  }
}
