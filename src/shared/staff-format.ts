// Dates and amounts on the staff's billing pages (subscriptions' and invoices'), in the business zone.
import { clockFormat } from "./business-time.js";

/** Dates and amounts as staff read them, in the business zone. */
export function staffFormatters(timeZone: string) {
  const day = (iso: string | null | undefined) =>
    iso
      ? new Date(iso).toLocaleDateString("en-CA", { timeZone, month: "short", day: "numeric", year: "numeric" })
      : "—";
  const dateOnly = (date: string | null | undefined) =>
    date
      ? new Date(`${date}T12:00:00Z`).toLocaleDateString("en-CA", {
          timeZone: "UTC",
          month: "short",
          day: "numeric",
          year: "numeric",
        })
      : "—";
  const momentFormat = clockFormat({ timeZone, dateStyle: "medium", timeStyle: "short" });
  const moment = (iso: string) => momentFormat.format(new Date(iso));
  // A charge's time with its zone ("Jan 4, 2027, 10:12 AM EST"): the customer's "on the 4th" is a business day.
  const zonedFormat = clockFormat({
    timeZone,
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  const zoned = (iso: string) => zonedFormat.format(new Date(iso));
  const money = (dollars: number) =>
    `$${dollars.toLocaleString("en-CA", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const wholeMoney = (dollars: number) => `$${dollars.toLocaleString("en-CA", { maximumFractionDigits: 0 })}`;
  return {
    day,
    dateOnly,
    moment,
    zoned,
    money,
    wholeMoney,
  };
}
