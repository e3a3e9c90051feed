/** Escapes text for HTML, in e-mail bodies built as strings (the views escape through EJS). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
