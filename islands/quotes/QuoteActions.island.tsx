import { useEffect } from "react";
import { type QuoteRequest, STAFF_MOVES } from "../../src/modules/quotes/quotes.constants";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";

// The actions of the server-rendered quote requests page (staff-side §2, §4, §8). Each one is the JSON
// call of the spec; afterwards the list is fetched again as a fragment and swapped in.

const PROPERTY_FIELDS: [string, string][] = [
  ["address", "Address"],
  ["city", "City"],
  ["province", "Province"],
  ["postalCode", "Postal Code"],
  ["clientName", "Client"],
  ["clientEmail", "Email"],
  ["clientPhone", "Phone"],
  ["subscriptionPlan", "Plan"],
  ["squareFootage", "Square Footage"],
  ["yearBuilt", "Year Built"],
  ["bedrooms", "Bedrooms"],
  ["bathrooms", "Bathrooms"],
];

async function refreshList() {
  const response = await fetch(window.location.href, { headers: { "HX-Request": "true" }, credentials: "include" });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("quote-list");
  const current = document.getElementById("quote-list");
  if (fresh && current) current.replaceWith(fresh);
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

/** Said when a save met a request changed since the page showed it (409 with the fresh request). */
const STALE_QUOTE_NOTICE = "This request was changed by someone else. The latest values are shown; review them and save again.";

/** The fresh request of a 409 `{message, current}` answer, or null for any other failure. */
function staleCurrent(error: unknown): QuoteRequest | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    return (JSON.parse(error.body) as { current?: QuoteRequest }).current ?? null;
  } catch {
    return null;
  }
}

/** The version of a request as the list shows it (sent back with every move, so a stale one is refused). */
const versionOf = (element: Element) => Number(element.closest<HTMLElement>("[data-quote-request]")?.dataset.version) || undefined;

export default function QuoteActions() {
  useEffect(() => {
    const quoteDialog = byId<HTMLDialogElement>("quote-dialog");
    const deleteDialog = byId<HTMLDialogElement>("delete-dialog");
    const propertyDialog = byId<HTMLDialogElement>("property-dialog");
    const quoteForm = quoteDialog?.querySelector<HTMLFormElement>("[data-quote-form]");
    const amount = byId<HTMLInputElement>("quote-amount");
    const notes = byId<HTMLTextAreaElement>("quote-notes");
    const save = quoteDialog?.querySelector<HTMLButtonElement>("[data-save-quote]");
    const staleNotice = quoteDialog?.querySelector<HTMLElement>("[data-quote-stale]");
    let target: number | null = null;
    let targetVersion: number | undefined;
    // Set when a save met a request that can no longer be quoted (someone accepted or declined it meanwhile).
    let closedToQuotes = false;

    // 'Save Quote' stays disabled while the amount is empty (staff-side §5).
    const syncSave = () => {
      if (save && amount) save.disabled = !amount.value.trim() || closedToQuotes;
    };

    const showStale = (message: string | null) => {
      if (!staleNotice) return;
      staleNotice.textContent = message ?? "";
      staleNotice.hidden = !message;
    };

    /** A move with the version it was made from; a stale one writes nothing and returns the fresh request. */
    const update = async (id: number, body: Record<string, unknown>): Promise<QuoteRequest | null> => {
      let current: QuoteRequest | null = null;
      try {
        await apiRequest("PATCH", `/api/quote-requests/${id}`, body);
        toast({ title: "Quote request updated successfully" });
      } catch (error) {
        current = staleCurrent(error);
        if (!current) toast({ title: "Failed to update quote request", variant: "destructive" });
      }
      await refreshList();
      return current;
    };

    const onClick = async (event: MouseEvent) => {
      const element = event.target as Element | null;
      if (element?.closest("[data-close-dialog]")) {
        element.closest("dialog")?.close();
        return;
      }
      const action = element?.closest<HTMLButtonElement>("[data-quote-action]");
      if (action) {
        target = Number(action.dataset.id);
        targetVersion = versionOf(action);
        const kind = action.dataset.quoteAction;
        if (kind === "quote" && quoteDialog && amount && notes) {
          amount.value = action.dataset.amount ?? "";
          notes.value = action.dataset.notes ?? "";
          closedToQuotes = false;
          showStale(null);
          const task = quoteDialog.querySelector("[data-quote-dialog-task]");
          if (task) task.textContent = action.closest<HTMLElement>("[data-title]")?.dataset.title ?? "";
          syncSave();
          quoteDialog.showModal();
        } else if (kind === "delete") {
          deleteDialog?.showModal();
        } else if (kind) {
          action.disabled = true;
          // The fresh list is swapped in either way; a stale move says why nothing happened.
          if (await update(target, { status: kind, version: targetVersion })) toast({ title: "Quote request not updated", description: STALE_QUOTE_NOTICE, variant: "destructive" });
        }
        return;
      }
      if (element?.closest("[data-confirm-delete]") && target !== null) {
        deleteDialog?.close();
        try {
          await apiRequest("DELETE", `/api/quote-requests/${target}`);
          toast({ title: "Quote request deleted successfully" });
        } catch {
          toast({ title: "Failed to delete quote request", variant: "destructive" });
        }
        await refreshList();
        return;
      }
      const details = element?.closest<HTMLElement>("[data-property-details]");
      if (details && propertyDialog) {
        const fields = propertyDialog.querySelector("[data-property-fields]");
        try {
          const property = await apiRequest<Record<string, unknown>>("GET", `/api/properties/${details.dataset.propertyDetails}`);
          fields?.replaceChildren(
            ...PROPERTY_FIELDS.flatMap(([key, label]) => {
              const dt = document.createElement("dt");
              dt.textContent = label;
              const dd = document.createElement("dd");
              dd.textContent = property[key] === null || property[key] === undefined || property[key] === "" ? "—" : String(property[key]);
              return [dt, dd];
            }),
          );
          propertyDialog.showModal();
        } catch {
          toast({ title: "Failed to load property details", variant: "destructive" });
        }
        return;
      }
      const generate = element?.closest<HTMLButtonElement>("[data-generate-quote-report]");
      if (generate) {
        generate.disabled = true;
        try {
          await apiRequest("POST", `/api/properties/${generate.dataset.generateQuoteReport}/generate-quote-report`);
          toast({ title: "Quote report generated and sent to client" });
        } catch {
          toast({ title: "Failed to generate quote report", variant: "destructive" });
        }
        generate.disabled = false;
      }
    };

    const onSubmit = async (event: SubmitEvent) => {
      if (event.target !== quoteForm || target === null || !amount?.value.trim()) return;
      event.preventDefault();
      if (save) save.disabled = true;
      const current = await update(target, { status: "quoted", quotedAmount: amount.value.trim(), adminNotes: notes?.value.trim() || null, version: targetVersion });
      if (!current) {
        quoteDialog?.close();
        return;
      }
      // Nothing typed here was applied: the dialog stays open with the request as it is now.
      targetVersion = current.version;
      amount.value = current.quotedAmount ?? "";
      if (notes) notes.value = current.adminNotes ?? "";
      closedToQuotes = !STAFF_MOVES[current.status].includes("quoted");
      showStale(closedToQuotes ? `${STALE_QUOTE_NOTICE} It is now ${current.status} and can no longer be quoted.` : STALE_QUOTE_NOTICE);
      syncSave();
      amount.focus();
    };

    amount?.addEventListener("input", syncSave);
    document.addEventListener("click", onClick);
    document.addEventListener("submit", onSubmit);
    return () => {
      amount?.removeEventListener("input", syncSave);
      document.removeEventListener("click", onClick);
      document.removeEventListener("submit", onSubmit);
    };
  }, []);
  return null;
}
