/**
 * `indusr mcp serve` (stdio) passes a plain `tools/call` to a stdio server
 * raw, past the two SDK stacks, when its client can be asked nothing; a
 * client that declared a capability takes the normal path. Either way the
 * client must get the same answer line, for every kind of answer a server
 * gives (hostile ones too), in both eras; a cancellation must reach the
 * server, and a call the gateway refuses is refused alike. Built CLI, real
 * processes, JSON lines written and read by hand (exactly what a client
 * sees): the fixture server (test/fixtures/answers-server.mjs) tells which
 * path a call took by the kind of id it arrived with.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { waitFor } from "@indus/testkit";
import { fixtureRow, writeConfig } from "./support/servers";

jest.setTimeout(120_000);

type Era = "2025" | "2026-07-28";
type Message = Record<string, unknown>;

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw-calls", version: "1.0.0" },
};

/** A client on its own gateway, speaking JSON lines. */
class LineClient {
  /** The log messages' data, in the order they came. */
  readonly logs: unknown[] = [];
  private readonly waiting = new Map<number, (message: Message) => void>();
  private next = 0;
  private buffer = "";

  constructor(
    readonly child: ChildProcess,
    private readonly meta: Message | undefined,
  ) {
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => this.read(chunk));
  }

  /** Sends a request; resolves with its answer line, less the id. */
  request(method: string, params: Message = {}): Promise<Message> {
    const id = ++this.next;
    const answered = new Promise<Message>((resolve) => this.waiting.set(id, resolve));
    this.send({ jsonrpc: "2.0", id, method, params: this.meta ? { ...params, _meta: this.meta } : params });
    return answered;
  }

  call(name: string, args: Message = {}): Promise<Message> {
    return this.request("tools/call", { name: `answers__${name}`, arguments: args });
  }

  /** The id the next request gets. */
  get nextId(): number {
    return this.next + 1;
  }

  send(message: Message): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    for (let at = this.buffer.indexOf("\n"); at !== -1; at = this.buffer.indexOf("\n")) {
      const { id, ...rest } = JSON.parse(this.buffer.slice(0, at)) as Message;
      this.buffer = this.buffer.slice(at + 1);
      if (!("method" in rest)) this.waiting.get(id as number)?.(rest);
      else if (rest["method"] === "notifications/message") this.logs.push((rest["params"] as Message)["data"]);
    }
  }
}

let sandbox: Sandbox;
let config: string;
/** The same server, whose calls give up after a moment. */
let hasty: string;
/** A server on the v2 SDK that speaks 2026-07-28 only, under the same name, whose calls give up after a moment. */
let modern: string;
/** The hostile fixture speaking 2026-07-28. */
let hostileModern: string;
const open: ChildProcess[] = [];

beforeAll(() => {
  sandbox = makeSandbox();
  const server = join(__dirname, "fixtures", "answers-server.mjs");
  config = writeConfig(sandbox.root, { answers: { command: process.execPath, args: [server] } });
  const answersHastily = { command: process.execPath, args: [server], toolTimeoutMs: 1_000 };
  hasty = writeConfig(sandbox.root, { answers: answersHastily }, "hasty.json");
  const modernRow = { ...fixtureRow("modern-server.mjs", "answers"), toolTimeoutMs: 1_000 };
  modern = writeConfig(sandbox.root, { answers: modernRow }, "modern.json");
  const answersModern = { command: process.execPath, args: [server, "--modern"] };
  hostileModern = writeConfig(sandbox.root, { answers: answersModern }, "hostile-modern.json");
});
// Gateways live for their describe block: closing them after each test would leave the next test's calls unanswered.
afterAll(() => {
  for (const child of open.splice(0)) child.stdin?.end();
  sandbox.cleanup();
});

/** `asks`: the client declares elicitation, so the gateway may ask it something and takes the normal path. */
async function lineClient(era: Era, asks: boolean, mcp = config): Promise<LineClient> {
  const child = spawn(process.execPath, [BIN, "mcp", "serve", "--stdio", "--no-builtins", "--mcp", mcp], {
    cwd: sandbox.cwd,
    env: sandbox.env,
    stdio: ["pipe", "pipe", "ignore"],
  });
  open.push(child);
  const capabilities = asks ? { elicitation: {} } : {};
  const modern = era === "2026-07-28";
  const client = new LineClient(
    child,
    modern ? { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": capabilities } : undefined,
  );
  if (modern) await client.request("server/discover");
  else {
    const clientInfo = { name: "raw-calls", version: "1.0.0" };
    await client.request("initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo });
    client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  // Listings and calls wait for the gateway's boot; a call made meanwhile takes the normal path.
  await client.request("tools/list");
  return client;
}

const text = (answer: Message) => (answer["result"] as { content: { text: string }[] }).content[0]!.text;

interface ClientPair {
  readonly raw: LineClient;
  readonly normal: LineClient;
}

/** The pair's first client calls raw, its second through the SDK (the fixture says which kind of id a call came with). */
function itTakesBothPaths(clients: ClientPair): void {
  it("that can be asked nothing calls raw; one that can, through the SDK", async () => {
    const { raw, normal } = clients;
    expect(text(await raw.call("whoami"))).toBe("string");
    expect(text(await normal.call("whoami"))).toBe("number");
  });
}

/** For each case (what the answer is, the tool, its arguments), both clients get the same answer line. */
function itAnswersAlike(clients: ClientPair, cases: [string, string, Message][]): void {
  it.each(cases)("gets what the normal path gives for %s", async (_what, tool, args) => {
    const { raw, normal } = clients;
    const [fast, slow] = await Promise.all([raw.call(tool, args), normal.call(tool, args)]);
    expect(fast).toEqual(slow);
  });
}

/**
 * For the describe block it is called in: a client that can be asked nothing
 * (its calls go raw) and one that can (the normal path), each on its own gateway
 * mounting what `mcp()` names once the sandbox is made.
 */
function clientPair(era: Era, mcp = () => config): ClientPair {
  const pair = {} as { raw: LineClient; normal: LineClient };
  beforeAll(async () => {
    [pair.raw, pair.normal] = await Promise.all([lineClient(era, false, mcp()), lineClient(era, true, mcp())]);
  });
  afterAll(() => {
    for (const each of [pair.raw, pair.normal]) each?.child.stdin?.end();
  });
  return pair;
}

describe.each<Era>(["2025", "2026-07-28"])("a %s client", (era) => {
  const clients = clientPair(era);

  itTakesBothPaths(clients);

  itAnswersAlike(clients, [
    ["a text result", "text", { message: "hi" }],
    ["an error result", "failing", {}],
    ["a JSON-RPC error", "rpc-error", {}],
    ["a non-text block", "image", {}],
    ["content that is not a list", "bad-type", {}],
    ["a result nested too deep", "deep", { levels: 3_000 }],
    ["a result typed complete by a 2025-era server", "typed", { type: "complete" }],
    ["a result typed with a number by a 2025-era server", "typed", { type: 5 }],
    ["a line with an object for its id first", "bad-id", {}],
    ["an answer to a request never sent first", "stray-id", {}],
    ["a tool the profile holds back", "writer", {}],
    ["a tool nobody offers", "nonesuch", {}],
  ]);

  it("gets a 20 MB result whole", async () => {
    const { raw, normal } = clients;
    const bytes = 20_000_000;
    const [fast, slow] = await Promise.all([raw.call("huge", { bytes }), normal.call("huge", { bytes })]);
    expect(text(fast).length).toBe(bytes);
    expect(fast).toEqual(slow);
  });
});

describe("cancelling a raw call", () => {
  it("reaches the server, and no answer follows", async () => {
    const client = await lineClient("2025", false);
    const id = client.nextId;
    const answered = jest.fn();
    void client.call("slow").then(answered);
    // Calls reach the server in order: once it has answered who it is, the slow call is there.
    expect(text(await client.call("whoami"))).toBe("string");
    client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "no" } });
    expect(text(await client.call("cancellations", { count: 1 }))).toBe("cancelled 1");
    expect(text(await client.call("whoami"))).toBe("string");
    expect(answered).not.toHaveBeenCalled();
  });
});

describe("a cancellation the SDK would not act on", () => {
  // The normal path's SDK refuses or drops it, and the call goes on to its deadline: so must a raw call.
  it.each<[string, (id: number) => Message]>([
    [
      "a reason that is not a string",
      (id) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: 5 } }),
    ],
    [
      "an id of its own",
      (id) => ({ jsonrpc: "2.0", id: 9_999, method: "notifications/cancelled", params: { requestId: id } }),
    ],
    [
      "another JSON-RPC version",
      (id) => ({ jsonrpc: "1.0", method: "notifications/cancelled", params: { requestId: id } }),
    ],
  ])("(%s) leaves the call to be answered as the normal path answers it", async (_what, cancel) => {
    const [raw, normal] = await Promise.all([lineClient("2025", false, hasty), lineClient("2025", true, hasty)]);
    const calls = [raw, normal].map((client) => {
      const answered = client.call("slow");
      client.send(cancel(client.nextId - 1));
      return answered;
    });
    const [fast, slow] = await Promise.all(calls);
    expect(fast).toEqual(slow);
    expect(JSON.stringify(fast)).toContain("timed out after 1000 ms");
  });
});

describe("a raw call past its deadline", () => {
  it.each<Era>(["2025", "2026-07-28"])(
    "is answered as the normal path answers it, in the %s era, and the server is told",
    async (era) => {
      const [raw, normal] = await Promise.all([lineClient(era, false, hasty), lineClient(era, true, hasty)]);
      // Two in a row: the second call's deadline falls past the shared timer armed for an earlier call, which must arm again for it.
      for (const round of [1, 2]) {
        const [fast, slow] = await Promise.all([raw.call("slow"), normal.call("slow")]);
        expect(fast).toEqual(slow);
        expect(JSON.stringify(fast)).toContain("timed out after 1000 ms");
        expect(text(await raw.call("cancellations", { count: round }))).toBe(`cancelled ${round}`);
        expect(text(await raw.call("whoami"))).toBe("string");
      }
    },
  );
});

describe.each<Era>(["2025", "2026-07-28"])("a %s client of a 2026-07-28 server", (era) => {
  const clients = clientPair(era, () => modern);

  itTakesBothPaths(clients);

  it.each([
    ["a text result", "echo", { message: "hi" }],
    ["an error result", "failing", {}],
    ["a non-text block", "picture", {}],
    ["a call that logs", "chatty", {}],
  ])("gets what the normal path gives for %s", async (_kind, tool, args) => {
    const { raw, normal } = clients;
    const [fast, slow] = await Promise.all([raw.call(tool, args), normal.call(tool, args)]);
    expect(fast).toEqual(slow);
    // A raw answer may pass the log the server wrote before it, which goes the normal way.
    await waitFor("the raw client's logs", () => raw.logs.length >= normal.logs.length);
    expect(raw.logs).toEqual(normal.logs);
  });

  it("past its deadline is answered as the normal path answers it, and the server is told", async () => {
    const { raw, normal } = clients;
    const [fast, slow] = await Promise.all([raw.call("hang"), normal.call("hang")]);
    expect(fast).toEqual(slow);
    expect(JSON.stringify(fast)).toContain("timed out after 1000 ms");
    expect(text(await raw.call("cancellations", { count: 1 }))).toBe("cancelled 1");
    expect(text(await raw.call("whoami"))).toBe("string");
  });
});

// The SDK client checks a 2026-07-28 result against that era's schema; a raw call's result is read by the same codec.
describe.each<Era>(["2025", "2026-07-28"])("a %s client of a hostile 2026-07-28 server", (era) => {
  const clients = clientPair(era, () => hostileModern);

  itTakesBothPaths(clients);

  itAnswersAlike(clients, [
    ["a text result", "text", { message: "hi" }],
    ["an error result", "failing", {}],
    ["a JSON-RPC error", "rpc-error", {}],
    ["content that is not a list", "bad-type", {}],
    ["an isError that is not a boolean", "not-boolean", {}],
    ["a result typed with a number", "typed", { type: 5 }],
    ["a result of a type the call did not ask for", "typed", { type: "input_required" }],
  ]);
});

describe("a gateway shutting down", () => {
  it.each([
    ["raw", false],
    ["normal", true],
  ])("answers a %s call as interrupted", async (_path, asks) => {
    const client = await lineClient("2025", asks);
    const pending = client.call("slow");
    expect(text(await client.call("cancellations", { count: 0 }))).toBe("cancelled 0");
    client.child.kill("SIGTERM");
    expect(await pending).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Call to 'answers__slow' interrupted: the provider host is shutting down" },
    });
  });
});
