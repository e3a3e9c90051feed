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
const STALE_QUOTE_NOTICE =
  "This request was changed by someone else. The latest values are shown; review them and save again.";

/** The fresh request of a 409 `{message, current}` answer, or null for any other failure. */
function staleCurrent(error: unknown): QuoteRequest | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    return (JSON.parse(error.body) as { current?: QuoteRequest }).current ?? null;
  } catch {
    return null;
  }
}

/** The server's message of a refused move (an expired quote), or nothing to add. */
function reasonOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  try {
    return (JSON.parse(error.body) as { message?: string }).message;
  } catch {
    return undefined;
  }
}

/** The version of a request as the list shows it (sent back with every move, so a stale one is refused). */
const versionOf = (element: Element) =>
  Number(element.closest<HTMLElement>("[data-quote-request]")?.dataset.version) || undefined;

/** The page's elements the actions use, found once when the island mounts. */
function pageElements() {
  const quoteDialog = byId<HTMLDialogElement>("quote-dialog");
  return {
    quoteDialog,
    deleteDialog: byId<HTMLDialogElement>("delete-dialog"),
    propertyDialog: byId<HTMLDialogElement>("property-dialog"),
    quoteForm: quoteDialog?.querySelector<HTMLFormElement>("[data-quote-form]"),
    amount: byId<HTMLInputElement>("quote-amount"),
    notes: byId<HTMLTextAreaElement>("quote-notes"),
    // What will be done (shown to the homeowner) and the last day it can be accepted (docs/decisions.md#42).
    scope: byId<HTMLTextAreaElement>("quote-scope"),
    validUntil: byId<HTMLInputElement>("quote-valid-until"),
    save: quoteDialog?.querySelector<HTMLButtonElement>("[data-save-quote]"),
    staleNotice: quoteDialog?.querySelector<HTMLElement>("[data-quote-stale]"),
  };
}
type Page = ReturnType<typeof pageElements>;

/** The request the last action was on, with the version the list showed for it. */
interface Target {
  id: number | null;
  version: number | undefined;
  /** Set when a save met a request that can no longer be quoted (someone accepted or declined it meanwhile). */
  closedToQuotes: boolean;
}

// 'Save Quote' stays disabled while the amount is empty (staff-side §5).
function syncSave({ save, amount }: Page, target: Target) {
  if (save && amount) save.disabled = !amount.value.trim() || target.closedToQuotes;
}

function showStale({ staleNotice }: Page, message: string | null) {
  if (!staleNotice) return;
  staleNotice.textContent = message ?? "";
  staleNotice.hidden = !message;
}

/** A move with the version it was made from; a stale one writes nothing and returns the fresh request. */
async function updateRequest(id: number, body: Record<string, unknown>): Promise<QuoteRequest | null> {
  let current: QuoteRequest | null = null;
  try {
    await apiRequest("PATCH", `/api/quote-requests/${id}`, body);
    toast({ title: "Quote request updated successfully" });
  } catch (error) {
    current = staleCurrent(error);
    // An expired quote's accept says why (docs/decisions.md#42): re-quote it to renew it.
    if (!current)
      toast({ title: "Failed to update quote request", description: reasonOf(error), variant: "destructive" });
  }
  await refreshList();
  return current;
}

/** A request's action button: the quote dialog, the delete dialog, or a status move made at once. */
async function onRequestAction(page: Page, target: Target, action: HTMLButtonElement) {
  const { quoteDialog, amount, notes, scope, validUntil } = page;
  target.id = Number(action.dataset.id);
  target.version = versionOf(action);
  const kind = action.dataset.quoteAction;
  if (kind === "quote" && quoteDialog && amount && notes) {
    amount.value = action.dataset.amount ?? "";
    notes.value = action.dataset.notes ?? "";
    if (scope) scope.value = action.dataset.scope ?? "";
    // Quoting again renews the validity: 30 days from today unless staff choose another date.
    if (validUntil) validUntil.value = validUntil.dataset.defaultValidUntil ?? "";
    target.closedToQuotes = false;
    showStale(page, null);
    const task = quoteDialog.querySelector("[data-quote-dialog-task]");
    if (task) task.textContent = action.closest<HTMLElement>("[data-title]")?.dataset.title ?? "";
    syncSave(page, target);
    quoteDialog.showModal();
  } else if (kind === "delete") {
    page.deleteDialog?.showModal();
  } else if (kind) {
    action.disabled = true;
    // The fresh list is swapped in either way; a stale move says why nothing happened.
    if (await updateRequest(target.id, { status: kind, version: target.version }))
      toast({ title: "Quote request not updated", description: STALE_QUOTE_NOTICE, variant: "destructive" });
  }
}

async function deleteRequest(id: number) {
  try {
    await apiRequest("DELETE", `/api/quote-requests/${id}`);
    toast({ title: "Quote request deleted successfully" });
  } catch {
    toast({ title: "Failed to delete quote request", variant: "destructive" });
  }
  await refreshList();
}

/** The property dialog, filled with the property's fields ('—' for the empty ones). */
async function showPropertyDetails(propertyDialog: HTMLDialogElement, propertyId: string | undefined) {
  const fields = propertyDialog.querySelector("[data-property-fields]");
  try {
    const property = await apiRequest<Record<string, unknown>>("GET", `/api/properties/${propertyId}`);
    fields?.replaceChildren(
      ...PROPERTY_FIELDS.flatMap(([key, label]) => {
        const dt = document.createElement("dt");
        dt.textContent = label;
        const dd = document.createElement("dd");
        dd.textContent =
          property[key] === null || property[key] === undefined || property[key] === "" ? "—" : String(property[key]);
        return [dt, dd];
      }),
    );
    propertyDialog.showModal();
  } catch {
    toast({ title: "Failed to load property details", variant: "destructive" });
  }
}

async function generateQuoteReport(button: HTMLButtonElement) {
  button.disabled = true;
  try {
    await apiRequest("POST", `/api/properties/${button.dataset.generateQuoteReport}/generate-quote-report`);
    toast({ title: "Quote report generated and sent to client" });
  } catch {
    toast({ title: "Failed to generate quote report", variant: "destructive" });
  }
  button.disabled = false;
}

/** Saves the quote; a stale save keeps the dialog open with the request as it is now. */
async function submitQuote(page: Page, target: Target, id: number, amount: HTMLInputElement) {
  const { quoteDialog, notes, scope, validUntil, save } = page;
  if (save) save.disabled = true;
  const current = await updateRequest(id, {
    status: "quoted",
    quotedAmount: amount.value.trim(),
    adminNotes: notes?.value.trim() || null,
    scope: scope?.value.trim() || null,
    validUntil: validUntil?.value || null,
    version: target.version,
  });
  if (!current) {
    quoteDialog?.close();
    return;
  }
  // Nothing typed here was applied: the dialog stays open with the request as it is now.
  target.version = current.version;
  amount.value = current.quotedAmount ?? "";
  if (notes) notes.value = current.adminNotes ?? "";
  if (scope) scope.value = current.scope ?? "";
  target.closedToQuotes = !STAFF_MOVES[current.status].includes("quoted");
  showStale(
    page,
    target.closedToQuotes
      ? `${STALE_QUOTE_NOTICE} It is now ${current.status} and can no longer be quoted.`
      : STALE_QUOTE_NOTICE,
  );
  syncSave(page, target);
  amount.focus();
}

/** Listens to the page's clicks and submits (the list is swapped after each action); returns the cleanup. */
function wireQuoteActions(): () => void {
  const page = pageElements();
  const target: Target = { id: null, version: undefined, closedToQuotes: false };
  const onInput = () => syncSave(page, target);

  const onClick = async (event: MouseEvent) => {
    const element = event.target as Element | null;
    if (element?.closest("[data-close-dialog]")) {
      element.closest("dialog")?.close();
      return;
    }
    const action = element?.closest<HTMLButtonElement>("[data-quote-action]");
    if (action) return onRequestAction(page, target, action);
    if (element?.closest("[data-confirm-delete]") && target.id !== null) {
      page.deleteDialog?.close();
      return deleteRequest(target.id);
    }
    const details = element?.closest<HTMLElement>("[data-property-details]");
    if (details && page.propertyDialog)
      return showPropertyDetails(page.propertyDialog, details.dataset.propertyDetails);
    const generate = element?.closest<HTMLButtonElement>("[data-generate-quote-report]");
    if (generate) await generateQuoteReport(generate);
  };

  const onSubmit = async (event: SubmitEvent) => {
    const { quoteForm, amount } = page;
    if (event.target !== quoteForm || target.id === null || !amount?.value.trim()) return;
    event.preventDefault();
    await submitQuote(page, target, target.id, amount);
  };

  page.amount?.addEventListener("input", onInput);
  document.addEventListener("click", onClick);
  document.addEventListener("submit", onSubmit);
  return () => {
    page.amount?.removeEventListener("input", onInput);
    document.removeEventListener("click", onClick);
    document.removeEventListener("submit", onSubmit);
  };
}

export default function QuoteActions() {
  useEffect(() => wireQuoteActions(), []);
  return null;
}
