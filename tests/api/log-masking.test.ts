// Logs: e-mail addresses are masked in every line (j***@example.com), probes and scrapes are
// not logged per request, and a crash or a stray rejection is logged with the request id it happened in.
// No secret reaches a line: a link's token in any case of its path, or a failed e-mail's body.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import type { Knex } from "knex";
import { SMTPServer } from "smtp-server";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createContainer } from "../../src/container.js";
import { ROOT_DIR } from "../../src/http/assets.js";
import { MailService } from "../../src/modules/mail/index.js";
import { createLogger, currentRequestId, maskEmails } from "../../src/observability/logger.js";
import { startWorker } from "../../src/worker-runner.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

/** A logger as production builds it, writing into an array of parsed lines. */
function capturedLogger() {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const log = createLogger("info", stream);
  return { log, raw, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("maskEmails", () => {
  it("keeps the first character and the domain of every address", () => {
    expect(maskEmails("jane.doe@example.com")).toBe("j***@example.com");
    expect(maskEmails("to a+b@mail.example.co.uk and Z@x.io")).toBe("to a***@mail.example.co.uk and Z***@x.io");
    expect(maskEmails('{"to":"jane@example.com","cc":["bob@example.org"]}')).toBe(
      '{"to":"j***@example.com","cc":["b***@example.org"]}',
    );
    // Percent-encoded in a logged URL.
    expect(maskEmails("/admin/properties?search=jane.doe%40example.com&page=2")).toBe(
      "/admin/properties?search=j***%40example.com&page=2",
    );
  });

  it("leaves what only looks like one alone", () => {
    for (const text of [
      "graphile-worker@0.16.6",
      "node_modules/@date-fns/tz/index.js",
      "@scope/pkg",
      "user@localhost",
      "no address here",
    ]) {
      expect(maskEmails(text), text).toBe(text);
    }
  });
});

describe("the process logger", () => {
  it("masks addresses in fields, messages and errors", () => {
    const { log, raw } = capturedLogger();
    log.info(
      { to: "jane.doe@example.com", nested: { list: ["bob@example.org"] } },
      "mail sent to jane.doe@example.com",
    );
    log.error({ err: new Error("550 mailbox unavailable: carol@example.net") }, "send failed");
    const text = raw.join("\n");
    expect(text).not.toMatch(/jane\.doe@|bob@|carol@/);
    expect(text).toContain('"to":"j***@example.com"');
    expect(text).toContain("mail sent to j***@example.com");
    expect(text).toContain('"list":["b***@example.org"]');
    expect(text).toContain("550 mailbox unavailable: c***@example.net");
  });

  it("masks the recipient of the mail service's lines", async () => {
    const { log, lines } = capturedLogger();
    const mail = new MailService(
      { from: "Haven <no-reply@haven.test>", outboxDir: path.join(ctx.env.DATA_DIR, "outbox") },
      log,
    );
    await mail.send({ to: "jane.doe@example.com", subject: "Your report", text: "Hello" });
    expect(lines()).toEqual([
      expect.objectContaining({ msg: "mail written to outbox", to: "j***@example.com", subject: "Your report" }),
    ]);
  });
});

describe("request logs", () => {
  it("mask addresses in URLs, and skip probes and scrapes", async () => {
    const { log, lines } = capturedLogger();
    const app = createApp(createContainer(ctx.env, ctx.url, ctx.db, { log }));
    await supertest(app).get("/livez").expect(200);
    await supertest(app).get("/readyz").expect(200);
    await supertest(app).get("/healthz").expect(200);
    await supertest(app).get("/metrics").expect(200);
    expect(lines()).toEqual([]);

    await supertest(app).get("/api/plans?contact=jane.doe%40example.com").expect(200);
    const logged = lines();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      msg: "request completed",
      req: { method: "GET", url: "/api/plans?contact=j***%40example.com" },
    });
  });

  it("say a 5xx errored, with the handler's own line under the same request id", async () => {
    const { log, lines } = capturedLogger();
    // A database whose every query fails: GET /api/plans answers 500.
    const failing = new Proxy(ctx.db, {
      apply() {
        throw new Error("the database is gone");
      },
    });
    const app = createApp(createContainer(ctx.env, ctx.url, failing, { log }));
    await supertest(app).get("/api/plans").set("X-Request-Id", "req-500").expect(500);
    const logged = lines();
    expect(logged.find((l) => l.msg === "request errored")).toMatchObject({
      req: { id: "req-500", method: "GET", url: "/api/plans" },
      res: { statusCode: 500 },
      responseTime: expect.any(Number),
    });
    expect(logged.find((l) => l.msg === "request failed")).toMatchObject({ req: { id: "req-500" } });
    expect(logged.filter((l) => l.msg === "request completed")).toEqual([]);
  });

  it("carry the request id into the request's async work (what the crash handlers name)", async () => {
    const seen: (string | undefined)[] = [];
    // The database the probes use notes which request it is working for.
    const db = new Proxy(ctx.db, {
      get(target, key, receiver) {
        if (key === "raw") {
          return (...args: Parameters<Knex["raw"]>) => {
            seen.push(currentRequestId());
            return target.raw(...args);
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const app = createApp({ ...ctx.container, db });
    await supertest(app).get("/readyz").set("X-Request-Id", "req-ctx-7").expect(200);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(["req-ctx-7"]));
  });
});

describe("process failures", () => {
  /** Runs a script the way Haven's entries run (node --import tsx) and returns its exit code and pino lines. */
  const run = (script: string) =>
    new Promise<{ code: number | null; lines: Record<string, unknown>[] }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        cwd: ROOT_DIR,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.on("error", reject);
      child.on("close", (code) =>
        resolve({
          code,
          lines: stdout
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line)),
        }),
      );
    });

  it("log an unhandled rejection and an uncaught exception with their request ids; the exception ends the process", async () => {
    const { code, lines } = await run(`
      import { createLogger, logProcessFailures, withRequestId } from "./src/observability/logger.ts";
      logProcessFailures(createLogger("info"));
      withRequestId("req-rejected", () => setTimeout(() => Promise.reject(new Error("lost the mail to jane@example.com")), 5));
      withRequestId("req-thrown", () => setTimeout(() => { throw new Error("boom"); }, 100));
      setTimeout(() => console.log(JSON.stringify({ msg: "still running" })), 1000);
    `);
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 50,
        msg: "unhandled promise rejection",
        requestId: "req-rejected",
        err: expect.objectContaining({ message: "lost the mail to j***@example.com" }),
      }),
      expect.objectContaining({
        level: 60,
        msg: "uncaught exception; exiting",
        requestId: "req-thrown",
        err: expect.objectContaining({ message: "boom" }),
      }),
    ]);
  });
});

describe("secrets in request paths and queries", () => {
  it("never reach the request log, whatever the case of the path (Express matches paths case-blind)", async () => {
    const { log, raw, lines } = capturedLogger();
    const app = createApp(createContainer(ctx.env, ctx.url, ctx.db, { log }));
    const agent = () => supertest(app);
    // Each secret is distinct, so a leak names its route.
    const secrets: string[] = [];
    const secret = (prefix = "") => {
      const value = `${prefix}${randomBytes(32).toString("base64url")}`;
      secrets.push(value);
      return value;
    };
    // Every router path that carries a credential (grep the routers for :token, :file, :sessionId, session_id,
    // payment_intent): billing links, My Home sign-in links, report and quote report links, both ICS feeds,
    // demo checkout sessions and Stripe's return query.
    const requests: [method: "get" | "post", url: string][] = [
      ["get", `/Billing/${secret()}`],
      ["get", `/BILLING/${secret()}/card`],
      ["post", `/billing/${secret()}/Cancel`],
      ["get", `/Api/Billing/${secret()}`],
      ["post", `/API/BILLING/${secret()}/resume`],
      ["get", `/My-Home/Sign-In/${secret()}`],
      ["post", `/my-home/SIGN-IN/${secret()}`],
      ["get", `/MY-HOME/sign-in/${secret()}?next=/my-home`],
      ["get", `/Client-Report/${secret()}`],
      ["get", `/api/Client-Report/${secret()}`],
      ["get", `/Api/client-report/${secret()}/Photos/1`],
      ["post", `/API/CLIENT-REPORT/${secret()}/responses`],
      ["get", `/Quote-Report/${secret()}`],
      ["post", `/quote-REPORT/${secret()}/items/1`],
      ["get", `/Calendar/Feed/${secret()}.ics`],
      ["get", `/My-Home/Calendar/Feed/${secret()}.ics`],
      ["get", `/Demo-Checkout/${secret("cs_demo_")}`],
      ["get", `/Api/Verify-Payment?session_id=${secret("cs_")}`],
      ["get", `/Property-Intake?plan=basic&session_id=${secret("pi_")}`],
      [
        "get",
        `/Payment-Success?plan=basic&payment_intent=${secret("pi_")}&payment_intent_client_secret=${secret("pi_secret_")}&redirect_status=succeeded`,
      ],
    ];
    for (const [method, url] of requests) await agent()[method](url).set("Sec-Fetch-Site", "same-origin").send({});
    const text = raw.join("\n");
    expect(lines().filter((l) => l.msg === "request completed")).toHaveLength(requests.length);
    for (const value of secrets) expect(text, value).not.toContain(value);
    expect(text).toContain("/Billing/[token]");
    expect(text).toContain("/My-Home/Sign-In/[token]");
    expect(text).toContain("/Api/client-report/[token]/Photos/1");
    expect(text).toContain("session_id=[token]");
  });
});

describe("a mail the SMTP server refuses", () => {
  it("is logged by the worker with its template and masked recipient, never its body, link or code", async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error("Message rejected by policy"), { responseCode: 554 })));
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const smtpUrl = `smtp://127.0.0.1:${(refusing.server.address() as AddressInfo).port}`;
    const mailCtx = await createTestContext({ SMTP_URL: smtpUrl, MAIL_MODE: "smtp" });
    const { log, raw } = capturedLogger();
    const container = createContainer(mailCtx.env, mailCtx.url, mailCtx.db, { log });
    try {
      await container.customers.createWithProperty(
        { email: "Jane.Doe@example.com", name: "Jane Doe", phone: "613-555-0199", subscriptionPlan: "basic" },
        { address: "7 Refused Lane", city: "Ottawa", province: "ON", postalCode: "K1A 0A9" },
      );
      await container.homeAuth.requestSignIn("jane.doe@example.com", "198.51.100.30");
      const { rows } = await mailCtx.db.raw("select payload from graphile_worker._private_jobs");
      const { text } = rows[0].payload as { text: string };
      const link = /https?:\/\/\S+\/my-home\/sign-in\/([A-Za-z0-9_-]{43})/.exec(text)!;
      const code = /code on the sign-in page: (\d{6})/.exec(text)![1]!;

      const worker = await startWorker(container, 1);
      try {
        const failed = once(worker.runner.events, "job:error");
        await failed;
      } finally {
        await worker.stop(5000);
      }
      const logged = raw.join("\n");
      const failure = raw.find((line) => line.includes("Failed task"));
      expect(failure).toBeDefined();
      expect(failure).toContain("home-sign-in");
      expect(failure).toContain("j***@example.com");
      expect(logged).toContain("554");
      for (const secret of [link[0], link[1]!, "Use this link to sign in", "code on the sign-in page"])
        expect(logged).not.toContain(secret);
      expect(logged).not.toMatch(new RegExp(`\\b${code}\\b`));
    } finally {
      await mailCtx.close();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
