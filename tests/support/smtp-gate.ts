// SMTP relays that can hold their answer: the edge of the world for e-mail when a test must catch a worker
// in the middle of sending. Several relays can deliver into one mailbox (one per worker process, say).
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** What the relays accepted: a message counts once its relay answered 250 to the sender. */
export interface Mailbox {
  received: Buffer[];
  mails(): Promise<ParsedMail[]>;
}

export function mailbox(): Mailbox {
  const received: Buffer[] = [];
  return { received, mails: () => Promise.all(received.map((raw) => simpleParser(raw))) };
}

export interface GatedSmtp {
  url: string;
  /** Messages read in full but not answered yet. */
  held(): number;
  /** From now on, read each message but do not answer: its sender waits in the middle of the transaction. */
  hold(): void;
  /** Answer the held messages (they count as received) and every message from now on. */
  open(): void;
  /** Forget the held messages without answering them (their sender is gone): none was accepted. */
  drop(): number;
  close(): Promise<void>;
}

/** A local SMTP relay, open at first, that delivers into `box`. */
export async function startGatedSmtp(box: Mailbox): Promise<GatedSmtp> {
  let holding = false;
  let waiting: { raw: Buffer; answer: () => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    closeTimeout: 1000,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        const answer = () => {
          box.received.push(raw);
          callback();
        };
        if (holding) waiting.push({ raw, answer });
        else answer();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    held: () => waiting.length,
    hold: () => {
      holding = true;
    },
    open: () => {
      holding = false;
      const answers = waiting;
      waiting = [];
      for (const { answer } of answers) answer();
    },
    drop: () => {
      const dropped = waiting.length;
      waiting = [];
      return dropped;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
