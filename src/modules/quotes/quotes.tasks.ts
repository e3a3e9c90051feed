import type { Task } from "graphile-worker";
import type { MailService } from "../mail/index.js";
import { renderQuoteReportPdf } from "./quote-report.pdf.js";
import { quoteReportEmail } from "./quotes.mail.js";
import type { QuotesService } from "./quotes.service.js";

/** What the quote report e-mail job uses. */
export interface QuoteReportMailDeps {
  quotes: Pick<QuotesService, "quoteReportForMail">;
  mail: Pick<MailService, "send">;
  settings: { supportEmail: string };
}

/** Renders the quote report PDF in the worker and e-mails it with the page link; a failure retries. */
export const quoteReportMailTask =
  (deps: QuoteReportMailDeps): Task =>
  async (payload) => {
    const { linkId, link: url } = payload as { linkId: number; link: string };
    const { link, report } = await deps.quotes.quoteReportForMail(linkId);
    const pdf = await renderQuoteReportPdf({
      propertyAddress: report.property.address,
      clientName: report.property.clientName,
      createdAt: link.createdAt,
      items: report.items,
      totalCents: report.totalCents,
      link: url,
    });
    await deps.mail.send(
      quoteReportEmail(
        {
          to: link.clientEmail,
          clientName: report.property.clientName,
          propertyAddress: report.property.address,
          items: report.items,
          totalCents: report.totalCents,
          link: url,
          supportEmail: deps.settings.supportEmail,
        },
        pdf,
      ),
    );
  };
