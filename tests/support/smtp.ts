import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

// The edge of the world for e-mail: a real local SMTP server receiving what nodemailer really sends.

export interface Smtp {
  url: string;
  received: Buffer[];
  mails(): Promise<ParsedMail[]>;
  /** The messages addressed to this e-mail (case-blind), in the order they arrived. */
  mailsTo(address: string): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A local SMTP server that keeps every message it receives. */
export async function startSmtp(): Promise<Smtp> {
  const received: Buffer[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push(Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const mails = () => Promise.all(received.map((raw) => simpleParser(raw)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mails,
    mailsTo: async (address) =>
      (await mails()).filter((m) =>
        (Array.isArray(m.to) ? m.to : [m.to]).some((to) =>
          to?.value.some((a) => a.address?.toLowerCase() === address.toLowerCase()),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
