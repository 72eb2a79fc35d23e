/**
 * A client that leaves mid-call is not the other clients' problem. Two
 * clients share `indusr mcp serve --http` (stateful and `--stateless`) in
 * front of a URL-mounted 2025-era server that asks its questions outside
 * the call (on its session's GET stream, as the v1 reference server does),
 * so the gateway can route them only by which clients have calls in flight.
 * One client (a real process) is killed mid-call: its call is cancelled
 * upstream (the server sees `notifications/cancelled`), and from then on the
 * other client gets every question the server asks during its own calls
 * (elicitation, sampling and roots in turn; 0 refusals over 100 calls), in
 * both eras of the gateway's clients.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { FIXTURES, waitFor } from "@indus/testkit";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";
import {
  gatewayFlags,
  httpTransport,
  mountedName,
  relayClient,
  startHttpGateway,
  stopChild,
  type Era,
  type HttpGateway,
} from "./support/relay-client";

jest.setTimeout(180_000);

const CALLS = 100;
const KINDS = ["elicit", "sample", "roots"] as const;
const DEPARTING = path.join(__dirname, "fixtures", "departing-client.mjs");

/** A child process and the lines it printed so far, with a way to wait for one. */
interface Watched {
  readonly child: ChildProcess;
  /** Resolves when a line matching `pattern` is printed (already printed counts); rejects if the child exits first. */
  line(pattern: RegExp): Promise<string>;
}

function watch(child: ChildProcess): Watched {
  let seen = "";
  const waiters = new Set<() => void>();
  child.stdout!.on("data", (chunk: Buffer) => {
    seen += String(chunk);
    for (const wake of waiters) wake();
  });
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = seen.split("\n").find((each) => pattern.test(each));
        if (found === undefined) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      child.once("exit", (code) => reject(new Error(`exited ${code} before printing ${pattern}; printed: ${seen}`)));
      check();
    });
  return { child, line };
}

let sandbox: Sandbox;
let upstream: Watched;
let config: string;

beforeAll(async () => {
  sandbox = makeSandbox();
  upstream = watch(
    spawn(process.execPath, [path.join(FIXTURES, "stray-asker.mjs"), "http"], { stdio: ["ignore", "pipe", "inherit"] }),
  );
  const port = /PORT (\d+)/.exec(await upstream.line(/^PORT \d+/))![1];
  // Calls may run 10 minutes: only the leaving client can end its call early.
  const row = { url: `http://127.0.0.1:${port}/mcp`, protocol: "legacy", toolTimeoutMs: 600_000 };
  config = writeConfig(sandbox.root, { stray: row });
  // A --stateless replica never pins: the reviewed lock file ships beside the config.
  const approved = await runCli(["mcp", "approve", "stray", "--mcp", config], { sandbox });
  if (approved.code !== 0) throw new Error(`mcp approve failed: ${approved.stderr}`);
});
afterAll(async () => {
  await stopChild(upstream.child);
  sandbox.cleanup();
});

/** `work`'s result, waited for under the name `what` (no deadline of its own: the test's ceiling is the guard). */
async function named<T>(work: Promise<T>, what: string): Promise<T> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  done.catch(() => undefined); // handled: the caller gets the rejection below
  await waitFor(what, () => settled);
  return done;
}

/**
 * What the leaving client is doing when it dies: a 2025-era client, holding
 * the server's question open (its answer is what the server waits for); a
 * 2026-era one answers between rounds, with no request of its own open, so
 * it leaves while one is (`hold`). In stateless mode a 2025-era client has
 * no session and cannot be asked anything (-32021): it stays only as the leaver.
 */
const CASES: { mode: string; flags: string[]; leaver: Era; stayer: Era }[] = [
  { mode: "stateful", flags: [], leaver: "2025", stayer: "2025" },
  { mode: "stateful", flags: [], leaver: "2026-07-28", stayer: "2026-07-28" },
  { mode: "stateless", flags: ["--stateless"], leaver: "2025", stayer: "2026-07-28" },
  { mode: "stateless", flags: ["--stateless"], leaver: "2026-07-28", stayer: "2026-07-28" },
];

describe.each(["stateful", "stateless"])("a client leaving a %s gateway mid-call", (mode) => {
  let gateway: HttpGateway;
  beforeAll(async () => {
    const flags = CASES.find((each) => each.mode === mode)!.flags;
    gateway = await startHttpGateway(sandbox, config, [...(await gatewayFlags(sandbox)), ...flags]);
  });
  afterAll(() => gateway.stop());

  const cases = CASES.filter((each) => each.mode === mode);
  it.each(cases)(
    "is cancelled upstream; the other client's questions all arrive ($leaver leaves, $stayer stays)",
    async ({ leaver: leaverEra, stayer: stayerEra }) => {
      const tag = `leaver-${mode}-${leaverEra}`;
      const stayer = relayClient(`stayer-${mode}-${leaverEra}`, stayerEra);
      await stayer.client.connect(httpTransport(gateway.url));
      try {
        const asks = leaverEra === "2025" && mode === "stateful";
        const leaver = watch(
          spawn(process.execPath, [DEPARTING, gateway.url.href, leaverEra, asks ? "ask" : "hold", "elicit", tag], {
            cwd: sandbox.cwd,
            env: sandbox.env,
            stdio: ["ignore", "pipe", "inherit"],
          }),
        );
        await (asks ? leaver.line(/^ASKED elicitation\/create/) : upstream.line(new RegExp(`^CALLED ${tag}$`)));
        const killedAt = performance.now();
        leaver.child.kill("SIGKILL");
        await named(upstream.line(new RegExp(`^CANCELLED ${tag}$`)), "the call cancelled upstream");
        console.log(
          `${mode} ${leaverEra} leaver: cancelled upstream ${Math.round(performance.now() - killedAt)} ms after the kill`,
        );

        // The question the leaver held is answered upstream saying the client left, not that it was slow.
        if (asks) {
          const answer = await named(upstream.line(/^ERROR ANSWER /), "the error answer upstream");
          expect(answer).toContain("the client left before answering elicitation/create");
        }
        const names = (await stayer.client.listTools()).tools.map((each) => each.name);
        const ask = mountedName(names, "stray", "ask");
        const answers: string[] = [];
        for (let call = 0; call < CALLS; call++) {
          const result = await stayer.client.callTool({
            name: ask,
            arguments: { kind: KINDS[call % 3], tag: `s${call}` },
          });
          answers.push(JSON.stringify(result.content));
        }
        expect(answers.filter((answer) => !answer.includes(stayer.marker))).toEqual([]);
        expect(stayer.asked.elicitation).toHaveLength(Math.ceil(CALLS / 3));
        expect(stayer.asked.sampling).toHaveLength(Math.ceil((CALLS - 1) / 3));
        expect(stayer.asked.roots).toBe(Math.floor(CALLS / 3));
      } finally {
        await stayer.client.close().catch(() => undefined);
      }
    },
  );
});
