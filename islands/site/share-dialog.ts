// The share dialog's behaviour (staff-side §2, §5, §8), for the server-rendered views/sharing/_share-dialog.ejs:
// 'Generate Link' stays disabled until an e-mail is typed; the link can be copied. The e-mail starts as the
// client's on file, and another address typed is warned about (the link opens in one browser only: a slip
// sends the client's report to a stranger).

/** A toast: red by default (an error), green for a success. */
type Notify = (title: string, description: string, variant?: "success") => void;

export function shareDialog(notify: Notify): void {
  const dialog = document.querySelector<HTMLDialogElement>("[data-share-dialog]");
  if (!dialog) return;
  const form = dialog.querySelector<HTMLFormElement>("[data-share-form]")!;
  const email = form.querySelector<HTMLInputElement>("input[type=email]")!;
  const generate = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const result = dialog.querySelector<HTMLElement>("[data-share-result]")!;
  const link = dialog.querySelector<HTMLInputElement>("[data-share-link]")!;
  const warning = dialog.querySelector<HTMLElement>("[data-share-warning]");
  const sent = dialog.querySelector<HTMLElement>("[data-share-sent]");
  let reportId: string | null = null;
  let onFile = "";
  let busy = false;
  const sync = () => {
    generate.disabled = busy || !email.value.trim();
    generate.textContent = busy ? "Generating…" : "Generate Link";
    if (!warning) return;
    const typed = email.value.trim();
    const other = Boolean(onFile && typed && typed.toLowerCase() !== onFile.toLowerCase());
    warning.hidden = !other;
    warning.textContent = other
      ? `This is not the client's e-mail on file (${onFile}). Check it before you send: the report will go to ${typed}.`
      : "";
  };

  document.addEventListener("click", (event) => {
    const button = (event.target as Element | null)?.closest<HTMLElement>("[data-share-report]");
    if (!button) return;
    event.preventDefault();
    reportId = button.dataset.shareReport ?? null;
    onFile = (button.dataset.clientEmail || dialog.dataset.clientEmail || "").trim();
    email.value = onFile;
    result.hidden = true;
    link.value = "";
    sync();
    dialog.showModal();
    email.focus();
  });
  email.addEventListener("input", sync);
  link.addEventListener("focus", () => link.select());
  dialog.querySelector("[data-share-close]")?.addEventListener("click", () => dialog.close());

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!email.value.trim() || !reportId) return;
    busy = true;
    sync();
    try {
      const response = await fetch(`/api/reports/${reportId}/share`, {
        method: "POST",
        credentials: "include",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ clientEmail: email.value.trim() }),
      });
      if (!response.ok) throw new Error(String(response.status));
      link.value = ((await response.json()) as { reportLink: string }).reportLink;
      // The share's e-mail is queued with the link (src/modules/sharing/README.md): the dialog says where it went.
      if (sent) sent.textContent = `E-mail sent to ${email.value.trim()} with the link and the summary PDF.`;
      result.hidden = false;
      notify("Shareable link generated successfully!", "", "success");
    } catch {
      notify("Failed to share report", "");
    } finally {
      busy = false;
      sync();
    }
  });

  dialog.querySelector("[data-share-copy]")?.addEventListener("click", async () => {
    if (!link.value) return;
    try {
      await navigator.clipboard.writeText(link.value);
    } catch {
      // Without clipboard permission the selected text is still there to copy by hand.
      link.select();
    }
    notify("Link copied to clipboard", "", "success");
  });
}
