// What other modules, the CLI and the seeds may use of mail (README "Interface for other modules").
export { MailDeliveryError, MailService, type MailSettings, type SentMail, mailSettingsFrom } from "./mail.service.js";
export { mailSendTask } from "./mail.tasks.js";
export { myHomeLine, withCustomerFooter } from "./customer-footer.js";
export { accessMethodText, mailText, slotText, visitSentence } from "./mail-text.js";
export { type BookingConfirmationDetails, bookingConfirmationEmail } from "./templates/booking-confirmation.js";
export { type BookingRescheduledDetails, bookingRescheduledEmail } from "./templates/booking-rescheduled.js";
export { MAIL_SEND_TASK, type MailMessage, mailMessageSchema } from "./mail.schemas.js";
