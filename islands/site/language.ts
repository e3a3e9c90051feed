/**
 * "Ce site existe en français": an English page whose browser prefers French shows the hidden line of
 * views/partials/_language.ejs, until dismissed. Decided here, not on the server, so the page cache serves one page to
 * all, and never a redirect (docs/decisions.md#65).
 */
export function suggestFrench(): void {
  const line = document.querySelector<HTMLElement>("[data-lang-suggest]");
  const key = "haven-lang-suggest";
  if (!line || localStorage.getItem(key) || !navigator.languages.some((l) => /^fr\b/i.test(l))) return;
  line.hidden = false;
  line.querySelector("[data-lang-dismiss]")?.addEventListener("click", () => {
    line.hidden = true;
    localStorage.setItem(key, "1");
  });
}
