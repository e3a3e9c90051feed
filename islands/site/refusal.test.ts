import { describe, expect, it } from "vitest";
import { refusalMessage } from "./refusal";

describe("refusalMessage", () => {
  it("shows the server's message of a refused htmx request", () => {
    const body = JSON.stringify({ message: "Your role (inspector) cannot see subscriptions, invoices or billing." });
    expect(refusalMessage(403, "application/json; charset=utf-8", body)).toBe(
      "Your role (inspector) cannot see subscriptions, invoices or billing.",
    );
  });

  it("falls back to the status when there is no message to show", () => {
    expect(refusalMessage(403, "text/html; charset=utf-8", "<html>…</html>")).toBe(
      "The server answered 403. Please try again.",
    );
    expect(refusalMessage(409, "application/json", "{not json")).toBe("The server answered 409. Please try again.");
    expect(refusalMessage(400, "application/json", JSON.stringify({ message: "  " }))).toBe(
      "The server answered 400. Please try again.",
    );
    expect(refusalMessage(502, null, "")).toBe("The server could not do it. Please try again.");
  });
});
