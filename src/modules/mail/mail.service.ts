import { randomUUID } from "node:crypto";
import { withPhoneLayout } from "./phone-layout.js";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Knex } from "knex";
import type { Env } from "../../config/env.js";
import type { Tx } from "../../db/transaction.js";
import { enqueueJob, enqueueJobs } from "../../db/transaction.js";
import { maskEmails } from "../../observability/logger.js";
import { countMailFailed, countMailSent } from "../../observability/metrics.js";
import { MAIL_SEND_TASK, type MailMessage, mailMessageSchema } from "./mail.schemas.js";

export interface MailSettings {
  from: string;
  /** Reply-To of every message (the office: MAIL_FROM is a no-reply address); a message may name its own. */
  replyTo?: string;
  /** The SMTP server that sends every message; without it, messages become .eml files in `outboxDir`. */
  smtpUrl?: string;
  outboxDir: string;
}

/**
 * MAIL_MODE decides, not the mere presence of SMTP_URL: `outbox` writes files even when SMTP_URL is
 * set (loadEnv refuses `smtp` without one, and production without either).
 */
export function mailSettingsFrom(
  env: Pick<Env, "MAIL_FROM" | "MAIL_MODE" | "SMTP_URL" | "DATA_DIR"> &
    Partial<Pick<Env, "REPLY_TO" | "SUPPORT_EMAIL">>,
): MailSettings {
  return {
    from: env.MAIL_FROM,
    replyTo: env.REPLY_TO ?? env.SUPPORT_EMAIL,
    smtpUrl: env.MAIL_MODE === "smtp" ? env.SMTP_URL : undefined,
    outboxDir: path.join(env.DATA_DIR, "outbox"),
  };
}

export interface SentMail {
  messageId: string;
  /** The .eml file, in outbox mode. */
  file?: string;
}

/** Sends e-mail with nodemailer (docs/decisions.md#11). Domain code enqueues; the worker sends. */
export class MailService {
  private transport: Transporter | null = null;

  constructor(
    private readonly settings: MailSettings,
    private readonly log: Logger,
  ) {}

  /** Queues a message in the caller's transaction: it is sent only if that transaction commits. */
  enqueue(tx: Tx | Knex, message: MailMessage): Promise<void> {
    return enqueueJob(tx, MAIL_SEND_TASK, mailMessageSchema.parse(message));
  }

  /** Many messages in one statement (demo renewals send thousands of receipts at once). */
  enqueueMany(tx: Tx | Knex, messages: MailMessage[]): Promise<void> {
    return enqueueJobs(
      tx,
      MAIL_SEND_TASK,
      messages.map((m) => mailMessageSchema.parse(m)),
    );
  }

  private getTransport(): Transporter {
    this.transport ??= this.settings.smtpUrl
      ? nodemailer.createTransport(this.settings.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    return this.transport;
  }

  /**
   * Sends one message, counted for /metrics (haven_mail_sent_total, haven_mail_failed_total). A failure is
   * logged and thrown as a MailDeliveryError naming the template and the masked recipient only: the worker
   * logs what it throws, and a sign-in e-mail's body is a live link and code.
   */
  async send(input: MailMessage): Promise<SentMail> {
    const transport = this.settings.smtpUrl ? "smtp" : "outbox";
    try {
      // Every HTML body in the phone-safe layout: long links wrap on a small screen (phone-layout.ts).
      const sent = await this.deliver(withPhoneLayout(input));
      countMailSent(transport);
      return sent;
    } catch (error) {
      countMailFailed(transport);
      const failure = new MailDeliveryError(templateOf(input), String(input?.to ?? ""), error);
      this.log.warn(
        {
          template: failure.template,
          to: failure.recipient,
          transport,
          code: failure.code,
          responseCode: failure.responseCode,
        },
        "mail failed",
      );
      throw failure;
    }
  }

  private async deliver(input: MailMessage): Promise<SentMail> {
    const { template: _template, ...message } = mailMessageSchema.parse(input);
    const info = await this.getTransport().sendMail({
      from: this.settings.from,
      ...(this.settings.replyTo && { replyTo: this.settings.replyTo }),
      ...message,
    });
    const messageId = String(info.messageId ?? "");
    if (this.settings.smtpUrl) {
      this.log.info({ to: message.to, subject: message.subject, messageId }, "mail sent");
      return { messageId };
    }
    await mkdir(this.settings.outboxDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const file = path.join(this.settings.outboxDir, `${stamp}-${randomUUID().slice(0, 8)}.eml`);
    await writeFile(file, (info as unknown as { message: Buffer }).message);
    this.log.info({ to: message.to, subject: message.subject, file }, "mail written to outbox");
    return { messageId, file };
  }
}

const templateOf = (message: Partial<MailMessage> | undefined) => message?.template ?? message?.subject ?? "unknown";

/**
 * A message that could not be sent. Its text holds the template, the masked recipient and nodemailer's codes
 * (`EMESSAGE 554`, `ECONNECTION`), never the server's words or the original error: a server may quote the message.
 */
export class MailDeliveryError extends Error {
  readonly code: string | undefined;
  readonly responseCode: number | undefined;
  readonly recipient: string;

  constructor(
    readonly template: string,
    to: string,
    error: unknown,
  ) {
    const { code, responseCode, command, name } = (error ?? {}) as {
      code?: unknown;
      responseCode?: unknown;
      command?: unknown;
      name?: unknown;
    };
    const reason = [
      typeof code === "string" ? code : typeof name === "string" ? name : "error",
      typeof responseCode === "number" ? responseCode : null,
      typeof command === "string" ? `at ${command}` : null,
    ]
      .filter(Boolean)
      .join(" ");
    const recipient = maskEmails(to);
    super(`Mail "${template}" to ${recipient} failed: ${reason}`);
    this.name = "MailDeliveryError";
    this.code = typeof code === "string" ? code : undefined;
    this.responseCode = typeof responseCode === "number" ? responseCode : undefined;
    this.recipient = recipient;
  }
}
