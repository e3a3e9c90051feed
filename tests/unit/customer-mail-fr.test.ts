// Customer e-mails in the customer's language (docs/decisions.md#65): each rendered in French (its subject and a
// sentence), and once in the pseudo locale, where every word must come from the catalogue.
import { describe, expect, it } from "vitest";
import { formatters } from "../../src/i18n/format.js";
import type { RenderLocale } from "../../src/i18n/locales.js";
import { bookingConfirmationEmail, bookingRescheduledEmail } from "../../src/modules/mail/index.js";
import type { MailMessage } from "../../src/modules/mail/mail.schemas.js";
import { accessMethodText, mailText, slotText } from "../../src/modules/mail/mail-text.js";
import { reminderEmail } from "../../src/modules/maintenance/reminder-email.js";
import { signInEmail } from "../../src/modules/my-home/home-mail.js";
import { reportSharedEmail } from "../../src/modules/sharing/sharing.mail.js";
import { expectAllMarked } from "../support/pseudo-documents.js";

import {
  billingMails,
  contact,
  location,
  person,
  publicUrl,
  quoteMails,
  visitMails,
} from "../support/customer-mails.js";

type Mails = Record<string, MailMessage> & Record<"confirmation" | "rescheduled" | "signIn" | "shared", MailMessage>;

function mails(locale: RenderLocale): Mails {
  const { t, f } = mailText(locale, "America/Toronto");
  return {
    confirmation: bookingConfirmationEmail({
      ...person,
      ...contact,
      bookingId: 9,
      dateLabel: f.longDate("2026-12-01"),
      timeLabel: slotText(t, "morning"),
      location,
      accessLabel: accessMethodText(t, "lockbox"),
      accessInstructions: "Side door",
      hasAccessCode: true,
      specialRequests: null,
      start: new Date("2026-12-01T13:00:00Z"),
      minutes: 240,
      inspectionMinutes: 180,
      publicUrl,
      locale,
    }),
    rescheduled: bookingRescheduledEmail({
      ...person,
      ...contact,
      bookingId: 9,
      was: { dateLabel: f.longDate("2026-12-01"), timeLabel: slotText(t, "morning") },
      dateLabel: f.longDate("2026-12-03"),
      timeLabel: slotText(t, "2:30 PM"),
      location,
      start: new Date("2026-12-03T19:30:00Z"),
      minutes: 180,
      sequence: 1,
      publicUrl,
      locale,
    }),
    signIn: signInEmail({
      to: person.to,
      url: `${publicUrl}/my-home/sign-in/abc123`,
      code: "482913",
      publicUrl,
      supportEmail: contact.supportEmail,
      locale,
    }),
    shared: reportSharedEmail(
      {
        to: person.to,
        link: `${publicUrl}/client-report/tok123`,
        propertyAddress: location,
        recipientName: person.name,
        expiresAt: "2026-12-29T12:00:00.000Z",
        supportEmail: contact.supportEmail,
        locale,
      },
      Buffer.from("%PDF"),
    ),
    reminder: reminderEmail({
      ...person,
      ...contact,
      dateLabel: f.longDate("2026-12-01"),
      timeLabel: slotText(t, "afternoon"),
      what: t("mail.reminder.what.task", { title: "Gutter cleaning" }),
      location,
      durationLabel: t("mail.visit.hours", { hours: 2 }),
      ics: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
      publicUrl,
      locale,
    }),
    ...billingMails(locale),
    ...quoteMails(locale),
    ...visitMails(locale),
  };
}

const icsOf = (mail: MailMessage) => String(mail.attachments?.[0]?.content ?? "").replace(/\r?\n[ \t]/g, "");

describe("French dates", () => {
  it("the formatters write the first of a month 1er, in every date form, and leave other days and hours alone", () => {
    const f = formatters("fr-CA", "America/Toronto");
    expect(f.longDate("2026-12-01")).toBe("mardi 1er\u00a0décembre 2026");
    expect(f.dayMonth("2026-12-01")).toBe("1er\u00a0décembre");
    expect(f.shortDate("2027-01-01")).toBe("1er\u00a0janv. 2027");
    expect(f.dateTime("2026-12-01T15:00:00Z", { day: "numeric", month: "long", hour: "numeric" })).toBe(
      "1er\u00a0décembre à 10 h",
    );
    expect(f.dayMonth("2026-12-11")).toBe("11 décembre");
    expect(f.dayMonth("2026-12-21")).toBe("21 décembre");
    expect(f.time("2026-12-02T06:00:00Z")).toBe("1 h");
    expect(formatters("en-CA").dayMonth("2026-12-01")).toBe("December 1");
  });
});

describe("customer e-mails in French", () => {
  const fr = mails("fr-CA");
  const nbsp = (s: string) => s.replace(/\u00a0/g, " ");

  it("the booking confirmation: subject, date, window, visit length, .ics and a French My Home link", () => {
    const mail = fr.confirmation;
    expect(nbsp(mail.subject)).toBe("Votre inspection Haven est réservée pour le mardi 1er décembre 2026");
    const text = nbsp(mail.text);
    expect(text).toContain("Bonjour Camille Tremblay,");
    expect(text).toContain("Heure : Matin (de 8 h à 12 h)");
    expect(text).toContain("Accès : Accès par boîte à clé");
    expect(text).toContain("Prévoyez être à la maison pendant toute la visite, environ 3 heures :");
    expect(text).toContain("Ma maison : https://haven.example.com/fr/my-home");
    expect(mail.html).toContain('href="https://haven.example.com/fr/my-home"');
    expect(nbsp(icsOf(mail))).toContain("SUMMARY:Inspection résidentielle Haven");
    expect(nbsp(icsOf(mail))).toContain("Votre inspection résidentielle Haven en 114 points");
  });

  it("the rescheduled inspection: subject, the new time in French and the .ics", () => {
    const mail = fr.rescheduled;
    expect(nbsp(mail.subject)).toBe("Votre inspection Haven est reportée au jeudi 3 décembre 2026");
    expect(nbsp(mail.text)).toContain("Nouvelle heure : 14 h 30");
    expect(nbsp(mail.text)).toContain("Auparavant : mardi 1er décembre 2026, Matin (de 8 h à 12 h)");
    expect(nbsp(icsOf(mail))).toContain("SUMMARY:Inspection résidentielle Haven (reportée)");
  });

  it("the sign-in e-mail: its link opens the French sign-in page", () => {
    const mail = fr.signIn;
    expect(mail.subject).toBe("Votre lien et votre code de connexion Haven");
    expect(nbsp(mail.text)).toContain("Ou entrez ce code sur la page de connexion : 482913");
    expect(mail.text).toContain("https://haven.example.com/fr/my-home/sign-in/abc123");
    expect(mail.html).toContain('<strong style="font-size:1.25em;letter-spacing:0.15em">482913</strong>');
  });

  it("the report-ready e-mail: subject, expiry in French and the French report page", () => {
    const mail = fr.shared;
    expect(mail.subject).toBe("Votre Rapport santé Haven est prêt");
    expect(mail.text).toContain("jusqu'au 29 décembre 2026.");
    expect(mail.text).toContain("https://haven.example.com/fr/client-report/tok123");
  });

  it("a Gatineau receipt: TPS and TVQ, both registration numbers, French amounts and links", () => {
    const mail = fr["billing receipt"]!;
    expect(nbsp(mail.subject)).toBe("Votre reçu Haven : 425,41 $ CA");
    const text = nbsp(mail.text);
    expect(text).toContain("Merci. Nous avons reçu votre paiement pour le forfait Haven Standard.");
    expect(text).toContain("Période : du 1er décembre 2026 au 1er janvier 2027");
    expect(text).toContain("TPS 5 % : 18,50 $ CA");
    expect(text).toContain("TVQ 9,975 % : 36,91 $ CA");
    expect(text).toContain("Nº d'inscription à la TPS/TVH : 123456789 RT0001");
    expect(text).toContain("Nº d'inscription à la TVQ : 1234567890 TQ0001");
    expect(text).toContain("https://haven.example.com/fr/billing/7.1790000000.abc");
    expect(text).toContain("https://haven.example.com/fr/my-home/plan/invoices/7/pdf");
    expect(nbsp(fr["billing refund"]!.text)).toContain("Note de crédit : HAV-CN-2026-000003");
    expect(nbsp(fr["billing payment_failed"]!.subject)).toBe(
      "Votre paiement Haven a été refusé : veuillez mettre à jour votre carte",
    );
    expect(fr["billing canceled"]!.text).toContain("https://haven.example.com/fr/pricing");
  });

  it("an accepted quote and its receipt for a Gatineau home: TPS, TVQ, French amounts and links", () => {
    const accepted = fr["quote accepted"]!;
    expect(nbsp(accepted.subject)).toBe("Soumission acceptée : Replace the water heater");
    expect(nbsp(accepted.text)).toContain("Payer par carte : https://haven.example.com/fr/quote-pay/tok9");
    const receipt = fr["quote receipt"]!;
    expect(nbsp(receipt.subject)).toBe("Reçu HAV-2026-000051 : Replace the water heater");
    const text = nbsp(receipt.text);
    expect(text).toContain("Nous avons reçu votre paiement de 747,34 $ pour Replace the water heater");
    expect(text).toContain("TPS 5 % : 32,50 $");
    expect(text).toContain("TVQ 9,975 % : 64,84 $");
    expect(text).toContain("Nº d'inscription à la TPS/TVH : 123456789 RT0001");
    expect(text).toContain("https://haven.example.com/fr/my-home/quotes/4/invoice.pdf");
  });

  it("the quote e-mails: report, ready and booked, with French figures, dates and links", () => {
    const report = fr["quote report"]!;
    expect(nbsp(report.subject)).toBe(`Votre soumission Haven pour ${location}`);
    const text = nbsp(report.text);
    expect(text).toContain("Travaux prévus : Remove the old tank");
    expect(text).toContain("Prix avant taxes : 650,00 $");
    expect(text).toContain("TVQ 9,975 % : 64,84 $");
    expect(text).toContain("Valide jusqu’au : 1er janvier 2027");
    expect(text).toContain("Sam Roy viendra au moment convenu.");
    expect(text).toContain("Total taxes comprises : 747,34 $");
    expect(text).toContain(
      "Acceptez ou refusez chaque élément en un clic : https://haven.example.com/fr/quote-report/tok7",
    );
    const ready = fr["quote ready"]!;
    expect(nbsp(ready.subject)).toBe("Votre soumission Haven est prête : Replace the water heater");
    expect(nbsp(ready.text)).toContain("Ou dans Ma maison : https://haven.example.com/fr/my-home/quotes#quote-4");
    expect(ready.html).toContain("<strong>Replace the water heater</strong>");
    const booked = fr["quote booked"]!;
    expect(nbsp(booked.subject)).toBe(
      "Rendez-vous fixé : Replace the water heater le mardi 1er décembre 2026, à 14 h 30",
    );
    expect(nbsp(booked.text)).toContain("Un de nos techniciens se présentera à ce moment.");
    expect(booked.text).toContain("https://haven.example.com/fr/my-home/quotes");
  });

  it("a plan visit moved, skipped, restored: French dates, window, the service's French name and the .ics", () => {
    const moved = fr["plan visit moved"]!;
    expect(nbsp(moved.subject)).toBe("Visite déplacée au mardi 1er décembre 2026 : Nettoyage des gouttières");
    const text = nbsp(moved.text);
    expect(text).toContain("Vous avez déplacé votre visite (Nettoyage des gouttières).");
    expect(text).toContain("Auparavant : mardi 24 novembre 2026");
    expect(text).toContain("Nouvelle date : mardi 1er décembre 2026, de 8 h à 17 h");
    expect(text).toContain("https://haven.example.com/fr/my-home");
    const ics = nbsp(icsOf(moved));
    expect(ics).toContain("SUMMARY:Nettoyage des gouttières (12 rue Laurier");
    expect(ics).toContain("Heure : de 8 h à 17 h.");
    expect(ics).toContain("Catégorie : Extérieur. Priorité : Moyenne.");
    expect(ics).toContain("Durée estimée : 2 heures.");
    expect(nbsp(fr["plan visit skipped"]!.text)).toContain("personne ne viendra ce jour-là.");
    expect(nbsp(fr["plan visit restored"]!.subject)).toBe(
      "Visite du mardi 1er décembre 2026 rétablie : Nettoyage des gouttières",
    );
  });

  it("the day-before reminder: subject, window and length in French", () => {
    const mail = fr.reminder!;
    expect(nbsp(mail.subject)).toBe(
      "Rappel : votre visite d'entretien Haven (Gutter cleaning) demain, mardi 1er décembre 2026",
    );
    expect(nbsp(mail.text)).toContain("Heure : Après-midi (de 12 h à 17 h)");
    expect(nbsp(mail.text)).toContain("Durée prévue : 2 heures");
  });

  it("write the office's phone as French writes it, 613-555-0142, wherever they give it (the glossary)", () => {
    const withPhone = Object.entries(fr).filter(([, mail]) => /555.0142/.test(mail.text));
    expect(withPhone.map(([name]) => name)).toEqual(expect.arrayContaining(["confirmation", "rescheduled"]));
    for (const [name, mail] of withPhone) {
      expect(mail.text, name).toContain("613-555-0142");
      expect(mail.text, name).not.toContain("(613)");
    }
    expect(mails("en-CA").confirmation.text).toContain(contact.supportPhone);
  });

  it("in English they keep the spec's words", () => {
    const en = mails("en-CA");
    expect(en.confirmation.subject).toBe("Your Haven inspection is booked for Tuesday, December 1, 2026");
    expect(en.confirmation.text).toContain("Time: Morning (8:00 AM - 12:00 PM)");
    expect(en.confirmation.text).toContain("Access: Lockbox access");
    expect(en.confirmation.text).toContain(
      "Plan to be home for the whole visit, about 3 hours: the inspection itself takes about 60 minutes",
    );
    expect(en.confirmation.text).toContain("My Home: https://haven.example.com/my-home");
    expect(en.signIn.text).toContain("https://haven.example.com/my-home/sign-in/abc123");
    expect(en.shared.text).toContain("until December 29, 2026.");
    expect(en["billing receipt"]!.subject).toBe("Your Haven receipt: $425.41 CAD");
    expect(en["billing receipt"]!.text).toContain("QST 9.975%: $36.91 CAD");
    expect(en["quote report"]!.subject).toBe(`Your Haven quote for ${location}`);
    expect(en["quote report"]!.text).toContain("Valid until: January 1, 2027");
    expect(en["quote report"]!.text).toContain("Total with tax: $747.34");
    expect(en["quote booked"]!.subject).toBe("Booked: Replace the water heater on Tuesday, December 1, 2026, 14:30");
    expect(en["quote booked"]!.text).toContain("One of our technicians comes at that time.");
    expect(en["plan visit moved"]!.subject).toBe("Gutter cleaning moved to Tuesday, December 1, 2026");
    expect(en["plan visit moved"]!.text).toContain("You moved your gutter cleaning visit.");
    expect(en["plan visit moved"]!.text).toContain("Now: Tuesday, December 1, 2026, 8 AM–5 PM");
    expect(icsOf(en["plan visit moved"]!)).toContain("Category: Exterior. Priority: Medium.");
  });

  it("pseudo-locale: every word of every e-mail and .ics comes from the catalogue", () => {
    const data = [
      person.name,
      person.to,
      location,
      "Side door",
      contact.supportEmail,
      publicUrl,
      "havenhomehealth.ca",
      "haven/bookings",
      "123456789 RT0001",
      "1234567890 TQ0001",
      "HAV-CN-2026-000003",
      "HAV-2026-000042",
      "HAV-2026-000051",
      "Replace the water heater",
      "Haven Home Health Inc.",
      "mardi 1er décembre 2026",
      "Gutter cleaning",
      "Remove the old tank, install a 40-gallon one",
      "Sam Roy",
      "tok7",
      "tok8",
      "14:30",
    ];
    for (const [name, mail] of Object.entries(mails("en-XA"))) {
      expectAllMarked(mail.subject, data, `${name} subject`);
      for (const line of mail.text.split("\n")) expectAllMarked(line.replace(/https?:\/\/[^\s⟧]+/g, ""), data, name);
      const ics = icsOf(mail);
      for (const field of ["SUMMARY", "DESCRIPTION"])
        for (const value of ics.match(new RegExp(`^${field}:(.*)$`, "gm")) ?? [])
          expectAllMarked(value.slice(field.length + 1).replace(/\\[,;n]/g, " "), data, `${name} .ics`);
    }
  });
});
