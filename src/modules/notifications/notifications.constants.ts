/** What the office must act on (src/modules/notifications/README.md): one kind per event raised. */
export const NOTIFICATION_KINDS = [
  "quote-accepted",
  "quote-declined",
  "payment-failed",
  "cancel-scheduled",
  "cancel-undone",
  "dispute",
  "booking-rescheduled",
  "booking-cancelled",
  "visit-requested",
  "visit-moved",
  "visit-skipped",
  "visit-restored",
  "paid-never-booked",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How each kind reads in the list and its filter. */
export const NOTIFICATION_LABELS: Readonly<Record<NotificationKind, string>> = {
  "quote-accepted": "Quote accepted",
  "quote-declined": "Quote declined",
  "payment-failed": "Payment failed",
  "cancel-scheduled": "Cancellation scheduled",
  "cancel-undone": "Cancellation undone",
  dispute: "Payment disputed",
  "booking-rescheduled": "Homeowner moved a booking",
  "booking-cancelled": "Homeowner cancelled a booking",
  "visit-requested": "Plan visit requested",
  "visit-moved": "Homeowner moved a plan visit",
  "visit-skipped": "Homeowner skipped a plan visit",
  "visit-restored": "Homeowner restored a skipped visit",
  "paid-never-booked": "Paid but never booked",
};
