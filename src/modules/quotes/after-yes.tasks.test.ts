import { parseCrontab } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { QUOTES_BOOKED_MAIL_TASK, QUOTES_CRONTAB } from "./after-yes.tasks.js";

describe("the quotes crontab", () => {
  it("parses as graphile-worker reads it: the booking e-mails every five minutes", () => {
    const items = parseCrontab(QUOTES_CRONTAB);
    expect(items.map((i) => i.task)).toEqual([QUOTES_BOOKED_MAIL_TASK]);
    expect(items[0]!.match).toBeTypeOf("function");
  });
});
