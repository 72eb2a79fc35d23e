/**
 * A hostile server (packages/testkit/fixtures/hostile-server.mjs, real
 * processes) never takes the host down, and what it sends wrong costs only
 * the bad part: deep structures are cut where that keeps the rest or refused
 * with an error naming the path, bad 2026-era fields are repaired, optional
 * streams never hold the connect, and every drop or repair is an issue naming
 * the method, the item or field and the value.
 */
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isRecord, serverCondition, type RemoteCallResult, type ServerConfig } from "@indus/contract";
import { createServerEndpoint, type EndpointOptions, type McpServerEndpoint } from "@indus/endpoint";
import { hostile, REAL_EVENT_LOOP, waitFor } from "@indus/testkit";

const open: McpServerEndpoint[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((endpoint) => endpoint.close()));
});

/** The era probe's wait is a guard here, not the point: a loaded machine starts the fixture slowly. */
const PATIENT = { startupMs: 60_000, eraProbeMs: 30_000 };

async function connect(options: readonly string[], endpointOptions: EndpointOptions = {}): Promise<McpServerEndpoint> {
  const config: ServerConfig = hostile("h", options);
  const timeouts = { ...PATIENT, ...endpointOptions.timeouts };
  const endpoint = createServerEndpoint(config, undefined, { ...endpointOptions, timeouts });
  open.push(endpoint);
  await endpoint.open();
  return endpoint;
}

const names = async (endpoint: McpServerEndpoint) => (await endpoint.listTools()).map((tool) => tool.ref.name);
const textOf = (result: RemoteCallResult) =>
  result.content.map((block) => (isRecord(block) && typeof block["text"] === "string" ? block["text"] : "")).join("");

it("connects a 2026 server whose probe answer arrives after the probe gave up, in 2026, on a fresh process", async () => {
  // The fixture holds its first process's discover answer until `initialize` comes, as a
  // 30 MB answer on a loaded machine arrives after the probe's deadline; initialize is refused.
  const marker = path.join(mkdtempSync(path.join(os.tmpdir(), "late-discover-")), "held");
  const endpoint = await connect(["era=modern", `late-discover=${marker}`], { timeouts: { eraProbeMs: 300 } });
  expect(existsSync(marker)).toBe(true);
  expect(endpoint.era).toBe("2026-07-28");
  expect(await names(endpoint)).toEqual(["echo"]);
});

describe.each(["legacy", "modern"])("%s era", (era) => {
  it("drops a tool whose inputSchema nests 10,000 levels, keeps the others, and says which and where", async () => {
    const endpoint = await connect([`era=${era}`, "deep-schema=10000"]);
    expect(await names(endpoint)).toEqual(["echo"]);
    expect(endpoint.issues).toEqual([
      expect.stringMatching(
        /^tools\/list: tool "deep" dropped: inputSchema nests deeper than 128 levels \(at inputSchema\.properties/,
      ),
    ]);
    expect(serverCondition(endpoint)).toBe("degraded");
  });

  it("drops a 10,000-level _meta and keeps the tool it was on", async () => {
    const endpoint = await connect([`era=${era}`, "deep-meta=10000"]);
    expect(await names(endpoint)).toEqual(["echo"]);
    expect(endpoint.issues).toEqual(
      expect.arrayContaining([expect.stringMatching(/^tools\/list: tool "echo": _meta dropped: it nests deeper/)]),
    );
  });

  it("refuses a call result nested 10,000 levels with an error naming the path, and stays usable", async () => {
    const endpoint = await connect([`era=${era}`, "deep-result=10000"]);
    const failed = await endpoint.invoke("echo", {}).then(
      (result) => textOf(result),
      (error: unknown) => String(error),
    );
    expect(failed).toMatch(/tools\/call result nesting deeper than 128 levels \(at structuredContent\.a\.a/);
    expect(endpoint.phase).toBe("ready");
    expect(await names(endpoint)).toEqual(["echo"]);
  });
});

it("drops a 10,000-level capability from server/discover and connects in the 2026 era", async () => {
  const endpoint = await connect(["era=modern", "deep-discover=10000"]);
  expect(endpoint.era).toBe("2026-07-28");
  expect(endpoint.issues).toEqual([
    expect.stringMatching(/^server\/discover: capability "experimental" dropped: deep nests deeper than 128 levels/),
  ]);
  expect(await names(endpoint)).toEqual(["echo"]);
});

it("caps 30 MB of server/discover instructions, and remembers only a small verdict", async () => {
  const saved: unknown[] = [];
  const endpoint = await connect(["era=modern", "big-discover=30000000"], {
    eraVerdicts: {
      load: () => Promise.resolve(undefined),
      save: (_identity, verdict) => {
        saved.push(verdict);
        return Promise.resolve();
      },
      forget: () => Promise.resolve(),
    },
  });
  expect(endpoint.instructions).toHaveLength(64 * 1024);
  expect(endpoint.issues).toEqual(["server/discover: instructions cut to 65536 of 30000000 characters"]);
  await waitFor("the era verdict saved", () => saved.length > 0);
  expect(JSON.stringify(saved).length).toBeLessThan(80 * 1024);
});

it.each([
  [["ttl=-5"], /^tools\/list: ttlMs -5 is not a whole number of ms ≥ 0; read as 0/],
  [['ttl="NaN"'], /^tools\/list: ttlMs "NaN" is not a whole number/],
  [["no-scope"], /^tools\/list: cacheScope absent is neither "public" nor "private"; read as "private"/],
])("keeps every tool of a 2026 listing with %j, naming the field and the value", async (options, issue) => {
  const endpoint = await connect(["era=modern", "deep-schema=3", ...options]);
  expect(await names(endpoint)).toEqual(["echo", "deep"]);
  expect(endpoint.issues).toEqual([expect.stringMatching(issue)]);
});

it("reads a 2026 result without resultType as complete", async () => {
  const endpoint = await connect(["era=modern", "no-result-type"]);
  expect(textOf(await endpoint.invoke("echo", {}))).toBe("echo");
  expect(endpoint.issues).toEqual([]);
});

it("connects a 2026 server that never acknowledges its listen stream without waiting for it", async () => {
  // The test owns the clock (the event loop stays real): the stream's 10 s deadline passes when the test moves
  // it, after the connect ended. The startup deadline does not move before then: a connect held by the stream
  // would never end, and time the test out.
  jest.useFakeTimers({ doNotFake: [...REAL_EVENT_LOOP] });
  try {
    const endpoint = await connect(["era=modern", "silent-listen"], {
      timeouts: { startupMs: 120_000, eraProbeMs: 10_000 },
    });
    expect(endpoint.phase).toBe("ready");
    expect(await names(endpoint)).toEqual(["echo"]);
    expect(endpoint.issues).toEqual([]);
    // A second at a time: the listen request may still be on its way when the connect ends.
    await waitFor("the unacknowledged listen stream named in the issues", () => {
      jest.advanceTimersByTime(1_000);
      return endpoint.issues.length > 0;
    });
    expect(endpoint.issues).toEqual([
      expect.stringMatching(/^subscriptions\/listen: not acknowledged within 10000 ms/),
    ]);
  } finally {
    jest.useRealTimers();
  }
});

it("a listing that times out leaves the server degraded, with the reason", async () => {
  const endpoint = await connect(["hang-list"], { timeouts: { listMs: 500 } });
  await expect(endpoint.listTools()).rejects.toThrow(/timed out/);
  expect(serverCondition(endpoint)).toBe("degraded");
});

it("refuses a server request nested 10,000 levels, answering the server with the reason", async () => {
  const endpoint = await connect(["deep-elicit=10000"]);
  const result = textOf(await endpoint.invoke("echo", {}));
  expect(result).toMatch(/^error: refused: params\.requestedSchema nests deeper than 128 levels/);
  expect(endpoint.issues).toEqual([expect.stringMatching(/^elicitation\/create: elicitation\/create refused/)]);
});

describe.each(["legacy", "modern"])("%s era prompt and resource lists", (era) => {
  it("keep every good entry, drop a bad field or a nameless entry, and name each", async () => {
    const endpoint = await connect([`era=${era}`, "bad-catalog"]);
    const prompts = await endpoint.listPrompts();
    expect(prompts).toEqual([{ name: "good" }, { name: "argless" }]);
    const resources = await endpoint.listResources();
    expect(resources.map((resource) => resource["uri"])).toEqual(["file:///good", "file:///sized"]);
    expect(resources[1]).not.toHaveProperty("size");
    const templates = await endpoint.listResourceTemplates();
    expect(templates.map((template) => template["name"])).toEqual(["good"]);
    expect(endpoint.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^prompts\/list: prompt "argless": field arguments "none" dropped/),
        expect.stringMatching(
          /^prompts\/list: a prompts entry dropped: it does not match the MCP prompt schema \(name:/,
        ),
        expect.stringMatching(/^resources\/list: resource "file:\/\/\/sized": field size "big" dropped/),
        expect.stringMatching(/^resources\/list: a resources entry dropped: .*\(uri:/),
        expect.stringMatching(/^resources\/templates\/list: a resourceTemplates entry dropped: .*\(uriTemplate:/),
      ]),
    );
    expect(serverCondition(endpoint)).toBe("degraded");
  });
});
