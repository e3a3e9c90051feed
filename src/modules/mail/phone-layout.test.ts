import { describe, expect, it } from "vitest";
import { phoneSafeHtml } from "./phone-layout.js";

const LONG = "https://haven.example/client-report/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEfG";

describe("phoneSafeHtml", () => {
  it("wraps the body and lets every link break, so a long link stays within a phone's width", () => {
    const html = phoneSafeHtml(`<p>Open <a href="${LONG}">${LONG}</a></p>`);
    expect(html.startsWith('<div style="overflow-wrap:anywhere;word-break:break-word">')).toBe(true);
    expect(html).toContain(`<a href="${LONG}" style="overflow-wrap:anywhere;word-break:break-word">${LONG}</a>`);
  });

  it("keeps a link's own style and adds the wrapping after it", () => {
    expect(phoneSafeHtml('<a href="/x" style="color:#0f2e24">x</a>')).toContain(
      '<a href="/x" style="color:#0f2e24;overflow-wrap:anywhere;word-break:break-word">x</a>',
    );
  });

  it("leaves other tags alone (an <abbr> is not a link)", () => {
    expect(phoneSafeHtml("<abbr>HST</abbr>")).toContain("<abbr>HST</abbr>");
  });
});

describe("MailService.send", () => {
  it("sends every HTML body in the phone-safe layout", async () => {
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const pino = (await import("pino")).default;
    const { MailService } = await import("./mail.service.js");
    const outboxDir = mkdtempSync(path.join(tmpdir(), "haven-mail-"));
    const mail = new MailService({ from: "Haven <no-reply@haven.example>", outboxDir }, pino({ level: "silent" }));
    const sent = await mail.send({
      template: "test",
      to: "owner@example.com",
      subject: "Your report",
      text: `Open ${LONG}`,
      html: `<p>Open <a href="${LONG}">${LONG}</a></p>`,
    });
    const eml = readFileSync(sent.file!, "utf8")
      .replace(/=\r?\n/g, "")
      .replace(/=3D/g, "=");
    expect(eml).toContain('<div style="overflow-wrap:anywhere;word-break:break-word">');
    expect(eml).toContain('style="overflow-wrap:anywhere;word-break:break-word">https://haven.example/client-report/');
  });
});
