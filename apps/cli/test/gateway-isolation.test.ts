/**
 * Two clients share one `indusr mcp serve --http` and the one server-everything
 * mounted behind it, and call concurrently: 300 calls each with progress
 * (both clients use the same progress tokens, the gateway must keep them
 * apart), plus sampling requests the server sends back mid-call. Neither ever
 * sees the other's results, progress or server->client requests. By URL also
 * with two clients pinned to 2026-07-28 (sampling as input_required rounds).
 */
import { makeSandbox, type Sandbox } from "./support/run-cli";
import { everythingRow, writeConfig } from "./support/servers";
import { startEverythingHttp } from "@indus/testkit";
import {
  gatewayFlags,
  httpTransport,
  mountedName,
  relayClient,
  startHttpGateway,
  type Era,
  type HttpGateway,
  type RelayClient,
} from "./support/relay-client";

jest.setTimeout(300_000);

type Mount = "stdio" | "url";

/** `<mount> <era>` -> why it cannot pass yet. */
const PENDING: Partial<Record<string, string>> = {};

// 16 calls in flight per client, both clients numbering their progress tokens
// alike: every call's tokens collide with the other client's. 300 calls each
// do that as surely as 1,000 did, in a third of the time (and of a loaded
// machine's chances to starve the run).
const CALLS = 300;
const SAMPLINGS = 20;
const IN_FLIGHT = 16;

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox();
});
afterAll(() => sandbox.cleanup());

/** Runs `work(i)` for i in [0, count) with at most `limit` in flight. */
async function pool(count: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

interface Outcome {
  /** Calls that failed, each named (which kind, which one) with its error. */
  readonly failures: string[];
  readonly wrongResults: string[];
  readonly wrongProgress: string[];
  readonly samplingAnswers: string[];
}

/** Each call's duration is unique to the caller and the call, and comes back in the result text. */
function durationOf(client: number, call: number): number {
  return (client * 5000 + call + 1) / 1e6;
}

/** CALLS long-running operations with progress, and SAMPLINGS sampling round-trips alongside. */
async function hammer(relay: RelayClient, client: number): Promise<Outcome> {
  const names = (await relay.client.listTools()).tools.map((tool) => tool.name);
  const slow = mountedName(names, "everything", "trigger-long-running-operation");
  const outcome: Outcome = { failures: [], wrongResults: [], wrongProgress: [], samplingAnswers: [] };
  const failed = (what: string) => (error: unknown) => {
    outcome.failures.push(`${relay.marker} ${what}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  };
  const progressCalls = pool(CALLS, IN_FLIGHT, async (call) => {
    const duration = durationOf(client, call);
    const seen: number[] = [];
    const result = await relay.client
      .callTool(
        { name: slow, arguments: { duration, steps: 2 } },
        { onprogress: (progress) => seen.push(progress.progress) },
      )
      .catch(failed(`progress call ${call}`));
    if (result === undefined) return;
    const text = JSON.stringify(result.content);
    if (!text.includes(`Duration: ${duration} seconds`)) outcome.wrongResults.push(`${duration}: ${text}`);
    if (seen.join(",") !== "1,2") outcome.wrongProgress.push(`${duration}: ${seen.join(",")}`);
  });
  const sample = mountedName(names, "everything", "trigger-sampling-request");
  const samplings = pool(SAMPLINGS, 4, async (call) => {
    const result = await relay.client
      .callTool({ name: sample, arguments: { prompt: `${relay.marker}-asks-${call}`, maxTokens: 5 } })
      .catch(failed(`sampling call ${call}`));
    if (result !== undefined) outcome.samplingAnswers.push(JSON.stringify(result.content));
  });
  await Promise.all([progressCalls, samplings]);
  return outcome;
}

describe.each<Mount>(["stdio", "url"])("two clients through one gateway, server-everything mounted by %s", (mount) => {
  let gateway: HttpGateway;
  let stopServer: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    let row: unknown = everythingRow();
    if (mount === "url") {
      const server = await startEverythingHttp("streamableHttp");
      stopServer = server.stop;
      row = { url: server.url };
    }
    const config = writeConfig(sandbox.root, { everything: row }, `mcp-${mount}.json`);
    gateway = await startHttpGateway(sandbox, config, await gatewayFlags(sandbox));
  });
  afterAll(async () => {
    await gateway?.stop();
    await stopServer?.();
  });

  async function race(era: Era): Promise<void> {
    const relays = ["alpha", "bravo"].map((marker) => relayClient(marker, era));
    await Promise.all(relays.map((relay) => relay.client.connect(httpTransport(gateway.url))));
    try {
      const outcomes = await Promise.all(relays.map((relay, client) => hammer(relay, client)));
      relays.forEach((relay, client) => {
        const other = relays[1 - client]!.marker;
        const outcome = outcomes[client]!;
        expect(outcome.failures).toEqual([]);
        expect(outcome.wrongResults).toEqual([]);
        expect(outcome.wrongProgress).toEqual([]);
        const unanswered = outcome.samplingAnswers.filter((answer) => !answer.includes(`${relay.marker} answers`));
        // Over stdio nothing on the wire ties a server's request to a call: with both clients' calls in
        // flight the gateway refuses rather than guesses. By URL the request arrives on the call's stream.
        const refusals = unanswered.filter((answer) => /refused rather than guessed/.test(answer));
        expect(mount === "stdio" ? unanswered.length - refusals.length : unanswered.length).toBe(0);
        expect(outcome.samplingAnswers.filter((answer) => answer.includes(other))).toEqual([]);
        expect(relay.asked.sampling.filter((prompt) => !prompt.includes(`${relay.marker}-asks-`))).toEqual([]);
        expect(relay.asked.sampling).toHaveLength(SAMPLINGS - refusals.length);
        expect(relay.asked.errors.map((error) => error.message)).toEqual([]);
      });
    } finally {
      await Promise.all(relays.map((relay) => relay.client.close().catch(() => undefined)));
    }
  }

  const eras: Era[] = mount === "url" ? ["2025", "2026-07-28"] : ["2025"];
  for (const era of eras) {
    const title = `never see each other's results, progress or server->client requests (${era} era)`;
    const reason = process.env.INDUS_RUN_PENDING === "1" ? undefined : PENDING[`${mount} ${era}`];
    if (reason === undefined) it(title, () => race(era));
    else it.skip(`${title} (pending: ${reason})`, () => race(era));
  }
});
