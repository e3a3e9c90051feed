import { type FormEvent, useEffect, useRef, useState } from "react";
import { apiRequest } from "../ui/api";
import { toast } from "../ui/toast";

// The share dialog of the reports list (staff-side §2): any `[data-share-report="{id}"]` button opens it.

export default function ShareDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const [reportId, setReportId] = useState<number | null>(null);
  const [email, setEmail] = useState("");
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const button = (event.target as Element | null)?.closest<HTMLElement>("[data-share-report]");
      if (!button) return;
      event.preventDefault();
      setReportId(Number(button.dataset.shareReport));
      setEmail(button.dataset.clientEmail ?? "");
      setLink(null);
      dialog.current?.showModal();
      requestAnimationFrame(() => emailInput.current?.focus());
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);

  async function generate(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || reportId === null) return;
    setBusy(true);
    try {
      const { reportLink } = await apiRequest<{ reportLink: string }>("POST", `/api/reports/${reportId}/share`, { clientEmail: email.trim() });
      setLink(reportLink);
      toast({ title: "Shareable link generated successfully!" });
    } catch {
      toast({ title: "Failed to share report", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Without clipboard permission the selected text is still there to copy by hand.
    }
    toast({ title: "Link copied to clipboard" });
  }

  return (
    <dialog ref={dialog} className="haven-dialog" aria-labelledby="share-title" data-share-dialog>
      <h2 id="share-title" className="font-serif text-2xl font-bold text-green-900">
        Share Report
      </h2>
      <p className="mt-1 text-sm text-ink/80">The client gets a link that opens in one browser only, with the summary PDF attached.</p>
      <form className="mt-4 flex flex-col gap-4" onSubmit={generate}>
        <div className="field">
          <label htmlFor="share-email">Client Email</label>
          <input id="share-email" ref={emailInput} type="email" autoComplete="off" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <button type="submit" className="btn btn-gold" disabled={!email.trim() || busy}>
          {busy ? "Generating…" : "Generate Link"}
        </button>
      </form>
      {link && (
        <div className="field mt-4">
          <label htmlFor="share-link">Shareable link</label>
          <div className="share-link">
            <input id="share-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} data-share-link />
            <button type="button" className="btn btn-green btn-sm" onClick={copy}>
              Copy
            </button>
          </div>
        </div>
      )}
      <div className="mt-5 flex justify-end">
        <button type="button" className="btn btn-outline btn-sm" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
