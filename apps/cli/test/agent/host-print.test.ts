/**
 * What a `-p` run answers when a mounted server (server-everything, over
 * stdio) asks something mid-call: elicitation and sampling are declined with
 * a reason the model reads in the tool result; `--allow-sampling` lets the
 * session's model answer sampling (the server's maxTokens as its limit, the
 * tokens in the run's usage); roots are the cwd and `--add-dir` folders.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  callTool,
  lastToolResults,
  say,
  type Protocol,
  type SeenRequest,
  type Step,
} from "./fake-model/fake-model-server";
import { FIXTURES } from "@indus/testkit";
import { events, everythingServer, runAgent } from "./support/agent-cli";
import { fakeModelName, modelArgs, useAgentTest } from "./support/agent-test";

jest.setTimeout(120_000);

const t = useAgentTest();

/** The testkit's relay fixture: it asks through `input_required` rounds in the 2026-07-28 era. */
const relayServer = { command: process.execPath, args: [path.join(FIXTURES, "relay-server.mjs")] };

async function run(
  script: Step[],
  extra: readonly string[],
  protocol: Protocol = "openai",
  servers: Record<string, unknown> = { everything: everythingServer },
) {
  const fake = await t.model(script);
  const mcp = t.sandbox.mcpConfig(servers);
  const r = await runAgent(
    [
      "-p",
      "ask the server",
      "--mcp",
      mcp,
      "--allow",
      "everything__*,relay__*",
      "--output-format",
      "stream-json",
      ...modelArgs(fake, protocol),
      ...extra,
    ],
    t.sandbox,
  );
  return { ...r, events: events(r.stdout), requests: fake.requests };
}

const resultText = (request: SeenRequest) => lastToolResults(request)[0]!.text;

test("-p declines elicitation and sampling with a reason the model reads, and lists the cwd and --add-dir as roots", async () => {
  const extra = path.join(t.sandbox.root, "extra dir");
  fs.mkdirSync(extra);
  const r = await run(
    [
      callTool("everything__trigger-elicitation-request", {}),
      callTool("everything__trigger-sampling-request", { prompt: "hello", maxTokens: 20 }),
      callTool("everything__get-roots-list", {}),
      callTool("everything__trigger-url-elicitation", { url: "https://consent.example/x" }),
      say("done"),
    ],
    ["--add-dir", extra],
  );
  expect(r.code).toBe(0);
  const [first, afterElicit, afterSampling, afterRoots, afterLink] = r.requests;
  expect(first!.system).toContain(`Also work in (added by the user): ${extra}`);

  const elicited = resultText(afterElicit!);
  expect(elicited).toContain("❌ User declined to provide the requested information.");
  expect(elicited).toMatch(
    /Note from indusr: the server "everything" asked the user for input \("Please provide inputs for the following fields:"\), and indusr declined it: this run is non-interactive \(-p\); with --yes, indusr sends a form's defaults when every required field has one\. Do not retry/,
  );

  const sampled = resultText(afterSampling!);
  expect(sampled).toContain("The user rejected the sampling request");
  expect(sampled).toContain("pass --allow-sampling everything");
  // Only the agent's own turns reached the model.
  expect(r.requests).toHaveLength(5);

  const roots = resultText(afterRoots!);
  expect(roots).toContain("Current MCP Roots (2 total)");
  expect(roots).toContain(`URI: ${pathToFileURL(fs.realpathSync(t.sandbox.cwd)).href}`);
  expect(roots).toContain(`URI: ${pathToFileURL(extra).href}`);

  const link = resultText(afterLink!);
  expect(link).toContain(
    "and indusr declined it: this run is non-interactive (-p), and a link needs a person to open it",
  );

  const hostEvents = r.events.filter((e) => e.type === "host_request");
  expect(hostEvents).toEqual([
    expect.objectContaining({ server: "everything", request: "form", outcome: "decline" }),
    expect.objectContaining({ server: "everything", request: "sampling", outcome: "decline" }),
    expect.objectContaining({ server: "everything", request: "url", outcome: "decline" }),
  ]);
  const { transcript } = r.events.find((e) => e.type === "result") as { transcript: string };
  const recorded = fs
    .readFileSync(transcript, "utf8")
    .split("\n")
    .filter((line) => line.includes('"type":"host_request"'));
  expect(recorded).toHaveLength(3);
});

test.each<Protocol>(["openai", "anthropic"])(
  "--allow-sampling lets the session's model (%s) answer with the server's maxTokens, counted in the usage; --yes still declines a form without defaults",
  async (protocol) => {
    const r = await run(
      [
        callTool("everything__trigger-sampling-request", { prompt: "name a colour", maxTokens: 33 }),
        (request) => {
          if (request.system !== "You are a helpful test server.") return say(`unexpected system: ${request.system}`);
          return say("teal", { usage: { input: 7, output: 3 } });
        },
        callTool("everything__trigger-elicitation-request", {}),
        say("done"),
      ],
      ["--allow-sampling", "every*", "--yes"],
      protocol,
    );
    expect(r.code).toBe(0);
    const [first, sampling, afterSampling, afterElicit] = r.requests;
    expect(sampling!.messages.map((m) => m.text)).toEqual(["Resource trigger-sampling-request context: name a colour"]);
    expect(sampling!.tools).toEqual([]);
    const body = sampling!.body as { max_tokens?: number; max_completion_tokens?: number };
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(33);
    expect(first!.tools.length).toBeGreaterThan(0);

    const sampled = resultText(afterSampling!);
    expect(sampled).toContain('"text": "teal"');
    expect(sampled).toContain(`"model": "${fakeModelName(protocol)}"`);

    expect(resultText(afterElicit!)).toContain(
      "this run is non-interactive (-p), and the form has required fields without defaults",
    );

    const result = r.events.find((e) => e.type === "result") as {
      usage: { inputTokens: number; outputTokens: number };
    };
    // Three agent turns at the fake model's default 10 in / 5 out, plus the sampling answer.
    expect(result.usage).toMatchObject({ inputTokens: 3 * 10 + 7, outputTokens: 3 * 5 + 3 });
    expect(r.events.filter((e) => e.type === "host_request")).toEqual([
      expect.objectContaining({
        request: "sampling",
        outcome: "accept",
        usage: expect.objectContaining({ inputTokens: 7, outputTokens: 3 }),
      }),
      expect.objectContaining({ request: "form", outcome: "decline" }),
    ]);
  },
);

test("in the 2026-07-28 era the same answers travel as input_required rounds: --yes sends a form's defaults, sampling and roots answered, a link declined", async () => {
  const r = await run(
    [
      callTool("relay__ask", {}),
      callTool("relay__sample", {}),
      say("sampled", { usage: { input: 4, output: 1 } }),
      callTool("relay__roots", {}),
      callTool("relay__ask_url", {}),
      say("done"),
    ],
    ["--yes", "--allow-sampling", "relay"],
    "openai",
    { relay: relayServer },
  );
  expect(r.code).toBe(0);
  const [, afterAsk, sampling, afterSample, afterRoots, afterUrl] = r.requests;
  const asked = resultText(afterAsk!);
  expect(JSON.parse(asked.split("\n\n")[0]!)).toEqual({
    action: "accept",
    content: { name: "Ada", age: 36, color: "green" },
  });
  expect(asked).toContain(
    'the server "relay" asked the user for input ("Who are you?"); nobody could answer in this non-interactive run, so indusr sent the form\'s defaults (--yes): name, age, color.',
  );
  expect((sampling!.body as { max_tokens?: number }).max_tokens).toBe(10);
  expect(resultText(afterSample!)).toContain('"text":"sampled"');
  expect(resultText(afterRoots!)).toContain(pathToFileURL(fs.realpathSync(t.sandbox.cwd)).href);
  expect(resultText(afterUrl!)).toContain("a link needs a person to open it");
});

test("--output-format json lists how each server request was answered", async () => {
  const r = await run(
    [callTool("everything__trigger-elicitation-request", {}), say("done")],
    ["--output-format", "json"],
  );
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout) as { hostRequests?: unknown[] };
  expect(out.hostRequests).toEqual([
    {
      server: "everything",
      request: "form",
      outcome: "decline",
      reason: expect.stringContaining("this run is non-interactive (-p)"),
    },
  ]);
});

test("--add-dir names a folder that is not there: a usage error before anything starts", async () => {
  const r = await runAgent(["-p", "hi", "--add-dir", "nope", "--base-url", "http://127.0.0.1:9/v1"], t.sandbox);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`--add-dir: ${path.join(fs.realpathSync(t.sandbox.cwd), "nope")} does not exist`);
});
