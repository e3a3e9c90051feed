import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { enqueueJob } from "../../db/transaction.js";
import { MAIL_SEND_TASK, type MailMessage, mailMessageSchema } from "./mail.schemas.js";

export interface MailSettings {
  from: string;
  /** Send through this SMTP server; without it, messages become .eml files in `outboxDir`. */
  smtpUrl?: string;
  outboxDir: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file, in outbox mode. */
  file?: string;
}

/** Sends e-mail with nodemailer (DESIGN.md decision 11). Domain code enqueues; the worker sends. */
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

  private getTransport(): Transporter {
    this.transport ??= this.settings.smtpUrl
      ? nodemailer.createTransport(this.settings.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    return this.transport;
  }

  async send(input: MailMessage): Promise<SentMail> {
    const message = mailMessageSchema.parse(input);
    const info = await this.getTransport().sendMail({ from: this.settings.from, ...message });
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
