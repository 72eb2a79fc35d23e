/**
 * The optional relay members of `McpEndpoint` against the relay fixture (a
 * v2-SDK server) in both eras: completions, server logs and their level,
 * resource subscriptions and updates, and roots changes. The 2026 era has no
 * `logging/setLevel`, `resources/subscribe` or roots-changed notification:
 * the level rides on each call, subscriptions on the listen stream, and
 * roots are asked for per call (see `relay-members.ts`).
 */
import type { JsonObject } from "@indus/contract";
import { waitFor } from "@indus/testkit";
import { RELAY_SETUPS, firstText, relayHarness, type RelaySetup } from "./helpers/relay-harness";

const text = firstText;
const harness = relayHarness();
const open = harness.connect;
const WITH_ROOTS = { host: { listRoots: () => Promise.resolve([{ uri: "file:///work" }]) } };
const connect = (setup: RelaySetup) => open(setup, WITH_ROOTS);

/** Waits for `check` (named by its source in a hang report); Jest's ceiling is the only deadline. */
async function until(check: () => boolean): Promise<void> {
  await waitFor(String(check), check, { every: 20 });
}

describe.each(RELAY_SETUPS)("over %s in the %s era", (transport, protocol) => {
  const setup = [transport, protocol] as const;
  // One endpoint for the tests that change nothing another reads; the log-level tests open their own.
  const shared = harness.shared(setup, WITH_ROOTS);

  it("completes a prompt argument with the server's own answer", async () => {
    const endpoint = shared();
    const result = await endpoint.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "language", value: "py" },
    });
    expect(result["completion"]).toEqual({ values: ["python", "pytorch"], total: 2, hasMore: false });
  });

  it("relays a call's logs, params as sent, at the level set", async () => {
    const endpoint = await connect(setup);
    const logs: JsonObject[] = [];
    endpoint.onLog((params) => logs.push(params));
    await endpoint.setLogLevel("debug");
    expect(text(await endpoint.invoke("log", {}))).toBe("logged at debug");
    await until(() => logs.filter((log) => typeof log["data"] === "object").length === 4);
    expect(logs.filter((log) => typeof log["data"] === "object")).toEqual(
      ["debug", "info", "warning", "error"].map((level) => ({ level, logger: "relay", data: { level, _n: 1 } })),
    );
  });

  it("hands a call's logs to the call's own channel when it can tell the call, else to the listeners", async () => {
    const endpoint = await connect(setup);
    const ambient: JsonObject[] = [];
    const own: JsonObject[] = [];
    endpoint.onLog((params) => ambient.push(params));
    const options = { logs: { level: "warning" as const, deliver: (params: JsonObject) => own.push(params) } };
    const result = await endpoint.invoke("log", {}, options);
    // A 2026-07-28 call asks with its own level; a 2025-era server keeps the connection's.
    expect(text(result)).toBe(protocol === "legacy" ? "logged at unset" : "logged at warning");
    // A 2025-era stdio server's logs name no call; everywhere else the call can be told.
    const told = transport !== "stdio" || protocol !== "legacy";
    await until(() => (told ? own : ambient).length === 4);
    // A second call's logs arriving the same way: anything the first sent elsewhere came before them.
    await endpoint.invoke("log", {}, options);
    await until(() => (told ? own : ambient).length === 8);
    expect((told ? own : ambient).map((log) => log["level"])).toEqual([
      "debug",
      "info",
      "warning",
      "error",
      "debug",
      "info",
      "warning",
      "error",
    ]);
    expect(told ? ambient : own).toEqual([]);
  });

  it("delivers updates of a subscribed resource, and none after unsubscribing", async () => {
    const endpoint = shared();
    const updates: string[] = [];
    endpoint.onResourceUpdated((uri) => updates.push(uri));
    await endpoint.subscribeResource("test://watched");
    await endpoint.invoke("touch", {});
    await until(() => updates.length > 0);
    expect(updates).toEqual(["test://watched"]);
    await endpoint.unsubscribeResource("test://watched");
    await endpoint.invoke("touch", {});
    // Subscribed again, a later touch's update arrives after any the unsubscribed touch could have sent.
    await endpoint.subscribeResource("test://watched");
    await endpoint.invoke("touch", {});
    await until(() => updates.length > 1);
    expect(updates).toEqual(["test://watched", "test://watched"]);
  });

  it("tells the server its roots changed (2025 era) or has nothing to tell (2026 era)", async () => {
    const endpoint = shared();
    await endpoint.notifyRootsChanged();
    const expected = protocol === "legacy" ? "1" : "0";
    // The notification and the call may travel apart (two POSTs over HTTP): ask until the server counted it.
    await waitFor(`the server counted ${expected} roots change(s)`, async () =>
      text(await endpoint.invoke("roots_changed", {})) === expected ? true : undefined,
    );
  });
});

describe("after a 2025-era server restarts", () => {
  it("sends its subscriptions and log level again to the new process", async () => {
    const reconnect = { maxAttempts: 5, initialDelayMs: 100, maxDelayMs: 500 };
    const endpoint = await open(["stdio", "legacy"], {}, { reconnect });
    const updates: string[] = [];
    endpoint.onResourceUpdated((uri) => updates.push(uri));
    await endpoint.subscribeResource("test://watched");
    await endpoint.setLogLevel("warning");
    const first = endpoint.pid!;
    process.kill(first, "SIGKILL");
    await until(() => endpoint.phase === "ready" && endpoint.pid !== first);
    expect(endpoint.pid).not.toBe(first);
    expect(text(await endpoint.invoke("log", {}))).toBe("logged at warning");
    await endpoint.invoke("touch", {});
    await until(() => updates.length > 0);
    expect(updates).toEqual(["test://watched"]);
  });
});
