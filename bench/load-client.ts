// The load step's client (bench/load.ts), in a process of its own so that it does not share Haven's event loop:
// `tsx bench/load-client.ts <config.json>` runs autocannon against one scenario and prints one JSON line, every
// answer's status and time. Each request comes from its own client address (X-Forwarded-For, which Haven trusts
// behind its proxy): 50 clients are 50 people, each under the per-address limits, not one address past them.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export type Scenario = "booking" | "purchase" | "sign-in" | "quote-pay";

export interface LoadConfig {
  baseUrl: string;
  scenario: Scenario;
  connections: number;
  durationS: number;
  /** booking: the dates and slots picked from at random (a busy week). */
  dates?: string[];
  slots?: string[];
  /** purchase: the plan and the price its checkout charges. */
  plan?: string;
  amount?: number;
  /** sign-in: e-mails of homes on file (the others are unknown ones). */
  knownEmails?: string[];
  /** quote-pay: each homeowner's My Home cookie and the accepted quotes they may pay. */
  payers?: { cookie: string; quoteIds: number[] }[];
}

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Milliseconds, ascending. */
  latencies: number[];
  statuses: Record<string, number>;
  /** No answer at all: a refused connection or a timeout (autocannon's 10 s). */
  errors: number;
}

interface Request {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
type Context = Record<string, unknown>;
interface Step {
  method: string;
  path: string;
  setupRequest?: (request: Request, context: Context) => Request | null;
  onResponse?: (status: number, body: string, context: Context) => void;
}
interface Instance extends PromiseLike<{ duration: number; errors: number; timeouts: number }> {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
// autocannon ships no types: the few options used here.
const autocannon = createRequire(import.meta.url)("autocannon") as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  requests: Step[];
}) => Instance;

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
/** A client address of the documentation ranges (RFC 5737): only ever a header value, never dialled. */
const clientAddress = () => `${pick(["192.0.2", "198.51.100", "203.0.113"])}.${1 + Math.floor(Math.random() * 254)}`;
const CARD = { name: "Bench Payer", cardNumber: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123" };

/** A JSON request from a new client address, the address kept for the scenario's next steps. */
const json = (request: Request, context: Context, body: object): Request => {
  context.address ??= clientAddress();
  return {
    ...request,
    headers: { ...request.headers, "x-forwarded-for": String(context.address) },
    body: JSON.stringify(body),
  };
};

function steps(config: LoadConfig): Step[] {
  switch (config.scenario) {
    // The wizard (POST /api/inspection-bookings) for a new home, at a random time of a busy week: a 409 with the
    // free times is the expected answer once the calendars fill.
    case "booking":
      return [
        {
          method: "POST",
          path: "/api/inspection-bookings",
          setupRequest: (request, context) => {
            const id = unique();
            return json(request, context, {
              propertyAddress: `${1 + Math.floor(Math.random() * 999)} Bench Street, Ottawa, ON K1S 2B4`,
              propertyType: "single-family",
              propertySize: String(900 + Math.floor(Math.random() * 3000)),
              firstName: "Bench",
              lastName: `Booker ${id}`,
              email: `booker-${id}@example.com`,
              phone: "613-555-0100",
              scheduledDate: pick(config.dates!),
              timeSlot: pick(config.slots!),
              accessMethod: "meet-inspector",
            });
          },
        },
      ];
    // /checkout's submit, then the demo card's confirmation: the customer, the payment and the subscription.
    case "purchase":
      return [
        {
          method: "POST",
          path: "/api/create-payment-intent",
          setupRequest: (request, context) => {
            context.email = `buyer-${unique()}@example.com`;
            return json(request, context, {
              amount: config.amount,
              plan: config.plan,
              email: context.email,
              name: CARD.name,
              postalCode: "K1S 2B4",
            });
          },
          onResponse: (status, body, context) => {
            context.secret = status === 200 ? (JSON.parse(body) as { clientSecret: string }).clientSecret : undefined;
          },
        },
        {
          method: "POST",
          path: "/api/demo/confirm-payment",
          // No secret (the first step was refused): start again from the first.
          setupRequest: (request, context) =>
            context.secret
              ? json(request, context, { ...CARD, email: context.email, clientSecret: context.secret })
              : null,
        },
      ];
    // My Home's sign-in request (the e-mailed link and code): a home on file half the time, an unknown e-mail else.
    case "sign-in":
      return [
        {
          method: "POST",
          path: "/api/my-home/sign-in",
          setupRequest: (request, context) =>
            json(request, context, {
              email:
                Math.random() < 0.5 && config.knownEmails?.length
                  ? pick(config.knownEmails)
                  : `visitor-${unique()}@example.com`,
            }),
        },
      ];
    // The demo card on an accepted quote, from My Home: the first pay of each invoice charges it, the later ones
    // (and concurrent ones, which wait for the invoice's lock) answer that it is paid.
    case "quote-pay":
      return [
        {
          method: "POST",
          path: "/api/my-home/quotes/0/pay",
          setupRequest: (request, context) => {
            const payer = pick(config.payers!);
            const paying = json(request, context, { ...CARD, email: "bench-payer@example.ca" });
            return {
              ...paying,
              path: `/api/my-home/quotes/${pick(payer.quoteIds)}/pay`,
              headers: { ...paying.headers, cookie: payer.cookie },
            };
          },
        },
      ];
  }
}

async function run(config: LoadConfig): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const instance = autocannon({
    url: config.baseUrl,
    connections: config.connections,
    duration: config.durationS,
    headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
    requests: steps(config),
  });
  instance.on("response", (_client, status, _bytes, ms) => {
    latencies.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const result = await instance;
  return {
    requests: latencies.length,
    seconds: result.duration,
    latencies: latencies.sort((a, b) => a - b),
    statuses,
    errors: result.errors,
  };
}

const config = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as LoadConfig;
process.stdout.write(`${JSON.stringify(await run(config))}\n`);
