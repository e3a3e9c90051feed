import type { Task } from "graphile-worker";
import type { Container } from "../../container.js";
import { renderQuoteReportPdf } from "./quote-report.pdf.js";
import { quoteReportEmail } from "./quotes.mail.js";

/** Renders the quote report PDF in the worker and e-mails it with the page link; a failure retries. */
export const quoteReportMailTask =
  (container: Container): Task =>
  async (payload) => {
    const { linkId, link: url } = payload as { linkId: number; link: string };
    const { link, report } = await container.quotes.quoteReportForMail(linkId);
    const pdf = await renderQuoteReportPdf({
      propertyAddress: report.property.address,
      clientName: report.property.clientName,
      createdAt: link.createdAt,
      items: report.items,
      totalCents: report.totalCents,
      link: url,
    });
    await container.mail.send(
      quoteReportEmail(
        { to: link.clientEmail, clientName: report.property.clientName, propertyAddress: report.property.address, items: report.items, totalCents: report.totalCents, link: url, supportEmail: container.env.SUPPORT_EMAIL },
        pdf,
      ),
    );
  };
