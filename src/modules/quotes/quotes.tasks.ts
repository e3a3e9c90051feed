import type { Task } from "graphile-worker";
import type { MailService } from "../mail/index.js";
import { renderQuoteReportPdf } from "./quote-report.pdf.js";
import { quoteReadyEmail, quoteReportEmail } from "./quotes.mail.js";
import type { QuotesService } from "./quotes.service.js";

/** What the quote report e-mail job uses. */
export interface QuoteReportMailDeps {
  quotes: Pick<QuotesService, "quoteReportForMail" | "quoteReadyForMail">;
  mail: Pick<MailService, "send">;
  settings: { supportEmail: string };
}

/**
 * Renders the quote report PDF in the worker and e-mails it with the page link; a failure retries. A job with
 * `ready` is the e-mail of one quote just made or changed (docs/decisions.md#42): it sends only while the quote is
 * still at the version the move wrote, so each version is e-mailed at most once.
 */
export const quoteReportMailTask =
  (deps: QuoteReportMailDeps): Task =>
  async (payload) => {
    const {
      linkId,
      link: url,
      ready,
    } = payload as {
      linkId: number;
      link: string;
      ready?: { quoteRequestId: number; version: number };
    };
    const { link, report, locale } = await deps.quotes.quoteReportForMail(linkId);
    if (ready) {
      const item = await deps.quotes.quoteReadyForMail(ready.quoteRequestId, ready.version);
      if (!item) return;
      const pdf = await renderQuoteReportPdf({
        kind: "one",
        propertyAddress: report.property.address,
        clientName: report.property.clientName,
        createdAt: link.createdAt,
        items: [item],
        totalCents: item.quotedCents,
        totals: item.totals,
        link: url,
        locale,
      });
      await deps.mail.send(
        quoteReadyEmail(
          {
            to: link.clientEmail,
            clientName: report.property.clientName,
            propertyAddress: report.property.address,
            item,
            link: url,
            supportEmail: deps.settings.supportEmail,
            locale,
          },
          pdf,
        ),
      );
      return;
    }
    const pdf = await renderQuoteReportPdf({
      propertyAddress: report.property.address,
      clientName: report.property.clientName,
      createdAt: link.createdAt,
      items: report.items,
      totalCents: report.totalCents,
      totals: report.totals,
      link: url,
      locale,
    });
    await deps.mail.send(
      quoteReportEmail(
        {
          to: link.clientEmail,
          clientName: report.property.clientName,
          propertyAddress: report.property.address,
          items: report.items,
          totalCents: report.totalCents,
          totals: report.totals,
          link: url,
          supportEmail: deps.settings.supportEmail,
          locale,
        },
        pdf,
      ),
    );
  };
