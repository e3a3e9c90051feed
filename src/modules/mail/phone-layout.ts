// Every HTML e-mail as a phone shows it (src/modules/mail/README.md): a long link or e-mail address breaks onto the
// next line instead of widening the message past the screen. Inline styles: mail clients drop <style> blocks.

const WRAP = "overflow-wrap:anywhere;word-break:break-word";

/** The message's HTML inside one wrapping block, each link allowed to break anywhere. */
export function phoneSafeHtml(html: string): string {
  const links = html.replace(/<a\b([^>]*)>/gi, (tag, attributes: string) => {
    if (/\sstyle\s*=/i.test(attributes))
      return tag.replace(/\sstyle\s*=\s*(["'])(.*?)\1/i, (_m, quote: string, css: string) => {
        const rule = css.trim().replace(/;?$/, ";");
        return ` style=${quote}${rule}${WRAP}${quote}`;
      });
    return `<a${attributes} style="${WRAP}">`;
  });
  return `<div style="${WRAP}">${links}</div>`;
}

/** The message with its HTML (if any) in the phone-safe layout; anything else as it came (send validates it). */
export function withPhoneLayout<T>(message: T): T {
  const html = (message as { html?: unknown } | null)?.html;
  return typeof html === "string" ? { ...message, html: phoneSafeHtml(html) } : message;
}
