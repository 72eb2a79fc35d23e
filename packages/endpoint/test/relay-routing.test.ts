/**
 * A server's requests for input reach the client whose call caused them, and
 * no other: against the relay fixture (a v2-SDK server) in both eras, with
 * two clients calling at once, clients lacking a capability, and the
 * endpoint's own host for work outside any call.
 */
import type { ClientHostHooks, ElicitationAnswer, ElicitationMode, JsonObject } from "@indus/contract";
import path from "node:path";
import { FIXTURES, waitFor } from "@indus/testkit";
import { RelayRouter } from "../src/relay/relay-routing";
import { RELAY_SETUPS, firstText, relayHarness, type RelaySetup } from "./helpers/relay-harness";

const harness = relayHarness();

type Hook = "elicit" | "createMessage" | "listRoots";

/** Questions held until `count` of them are in flight at once (every client sharing it waits). */
function meeting(count: number): () => Promise<void> {
  let arrived = 0;
  return async () => {
    arrived += 1;
    await waitFor(`${count} questions in flight at once`, () => arrived >= count);
  };
}

interface ClientOptions {
  readonly without?: readonly Hook[];
  readonly modes?: readonly ElicitationMode[];
  /** Hold each elicitation until this resolves (a `meeting`). */
  readonly meet?: () => Promise<void>;
}

/** A client that answers everything (but the hooks it goes `without`) and records what it was asked. */
function client(
  name: string,
  { without = [], modes = ["form", "url"], meet }: ClientOptions = {},
): ClientHostHooks & { asked: string[] } {
  const asked: string[] = [];
  const hooks: ClientHostHooks & { asked: string[] } = {
    asked,
    elicitModes: modes,
    elicit: async (_server: string, params: JsonObject): Promise<ElicitationAnswer> => {
      asked.push(`elicit ${params["mode"] === "url" ? "url" : "form"}`);
      await meet?.();
      return params["mode"] === "url"
        ? { action: "accept", content: {} }
        : { action: "accept", content: { name: name } };
    },
    createMessage: async () => {
      asked.push("sample");
      return { role: "assistant", content: { type: "text", text: `model of ${name}` }, model: name };
    },
    listRoots: async () => {
      asked.push("roots");
      return [{ uri: `file:///${name}`, name }];
    },
  };
  for (const hook of without) delete (hooks as Partial<Record<Hook, unknown>>)[hook];
  return hooks;
}

type Setup = RelaySetup;
const setups = RELAY_SETUPS;
const connect = (setup: Setup, host: ClientHostHooks | undefined) => harness.connect(setup, host ? { host } : {});
const text = firstText;

describe.each(setups)("over %s in the %s era", (transport, protocol) => {
  const setup = [transport, protocol] as const;

  it("routes elicitation, sampling and roots to the calling client, never the endpoint's host", async () => {
    const ambient = client("ambient");
    const alice = client("alice");
    const endpoint = await connect(setup, ambient);
    const asked = JSON.parse(text(await endpoint.invoke("ask", {}, { relayTo: alice }))) as JsonObject;
    // The SDK fills the schema's defaults the client left out (SEP-1034).
    expect(asked).toEqual({ action: "accept", content: { name: "alice", age: 36, color: "green" } });
    expect(text(await endpoint.invoke("sample", {}, { relayTo: alice }))).toContain("model of alice");
    expect(text(await endpoint.invoke("roots", {}, { relayTo: alice }))).toContain("file:///alice");
    expect(text(await endpoint.invoke("ask_url", {}, { relayTo: alice }))).toContain("accept");
    expect(alice.asked).toEqual(["elicit form", "sample", "roots", "elicit url"]);
    expect(ambient.asked).toEqual([]);
  });

  it("names each question to the hook by the server's own key (2026-07-28) or not at all (2025)", async () => {
    const keys: (string | undefined)[] = [];
    const keyed: ClientHostHooks = {
      elicit: async (_server, _params, _signal, key) => {
        keys.push(key);
        return { action: "decline" };
      },
      createMessage: async (_server, _params, _signal, key) => {
        keys.push(key);
        return { role: "assistant", content: { type: "text", text: "x" }, model: "m" };
      },
      listRoots: async (_server, _signal, key) => {
        keys.push(key);
        return [];
      },
    };
    const endpoint = await connect(setup, client("ambient"));
    for (const tool of ["ask", "sample", "roots"]) await endpoint.invoke(tool, {}, { relayTo: keyed });
    // The relay fixture asks under the key `q`; a 2025-era request names no key.
    expect(keys).toEqual(protocol === "2026-07-28" ? ["q", "q", "q"] : [undefined, undefined, undefined]);
  });

  it("routes a prompt's request for input to the client it is read for", async () => {
    const ambient = client("ambient");
    const alice = client("alice");
    const endpoint = await connect(setup, ambient);
    const prompt = await endpoint.getPrompt("roots_prompt", {}, { relayTo: alice });
    expect(JSON.stringify(prompt["messages"])).toContain("file:///alice");
    expect(ambient.asked).toEqual([]);
  });

  it("a call without a relayTo is answered by the endpoint's own host", async () => {
    const ambient = client("ambient");
    const endpoint = await connect(setup, ambient);
    expect(text(await endpoint.invoke("roots", {}))).toContain("file:///ambient");
    expect(ambient.asked).toEqual(["roots"]);
  });

  it("a client without the capability gets the SDK server's own missing-capability answer", async () => {
    const endpoint = await connect(setup, client("ambient"));
    const formOnly = client("bob", { without: ["createMessage"], modes: ["form"] });
    if (protocol === "2026-07-28") {
      // The call declares bob's capabilities: the server refuses it itself (-32021).
      await expect(endpoint.invoke("sample", {}, { relayTo: formOnly })).rejects.toMatchObject({
        name: "ProtocolFault",
        rpcCode: -32021,
        data: { requiredCapabilities: { sampling: {} } },
      });
      await expect(endpoint.invoke("ask_url", {}, { relayTo: formOnly })).rejects.toMatchObject({ rpcCode: -32021 });
    } else {
      // The connection declared sampling; our answer is the -32021 the SDK's server would raise.
      const result = await endpoint.invoke("sample", {}, { relayTo: formOnly });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("Client does not support sampling (required for sampling/createMessage)");
    }
    expect(formOnly.asked).toEqual([]);
  });
});

describe("two clients calling at once", () => {
  it.each([
    ["stdio", "2026-07-28"],
    ["streamable-http", "2026-07-28"],
  ] as const)("over %s in the %s era each get only their own requests", async (transport, protocol) => {
    const endpoint = await connect([transport, protocol], client("ambient"));
    // The ten form questions (five each) are all pending at the clients before any is answered.
    const meet = meeting(10);
    const alice = client("alice", { meet });
    const bob = client("bob", { meet });
    const calls = Array.from({ length: 20 }, (_, i) => {
      const relayTo = i % 2 === 0 ? alice : bob;
      return endpoint
        .invoke(i % 4 < 2 ? "ask" : "roots", {}, { relayTo })
        .then((result) => [relayTo, text(result)] as const);
    });
    for (const [relayTo, answer] of await Promise.all(calls)) {
      const own = relayTo === alice ? "alice" : "bob";
      expect(answer).toContain(own);
      expect(answer).not.toContain(own === "alice" ? "bob" : "alice");
    }
    expect(alice.asked).toHaveLength(10);
    expect(bob.asked).toHaveLength(10);
  });

  it("over stdio in the 2025 era a request that no call context claims is refused, not guessed", async () => {
    // Over stdio a 2025-era server request carries nothing tying it to a call.
    const endpoint = await connect(["stdio", "legacy"], client("ambient"));
    const alice = client("alice");
    const bob = client("bob");
    const [a, b] = await Promise.all([
      endpoint.invoke("roots", {}, { relayTo: alice }),
      endpoint.invoke("roots", {}, { relayTo: bob }),
    ]);
    for (const result of [a, b]) {
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("refused rather than guessed");
    }
    expect([...alice.asked, ...bob.asked]).toEqual([]);
  });

  it("over stdio in the 2025 era goes to the only client in flight able to answer", async () => {
    const endpoint = await connect(["stdio", "legacy"], client("ambient"));
    const alice = client("alice");
    const noRoots = client("bob", { without: ["listRoots"] });
    const [a] = await Promise.all([
      endpoint.invoke("roots", {}, { relayTo: alice }),
      endpoint.invoke("ask", {}, { relayTo: noRoots }),
    ]);
    expect(text(a)).toContain("file:///alice");
  });
});

describe("a question read in one chunk with a call's answer (stdio, 2025 era)", () => {
  it("is outside any call: the endpoint's host gets it, not the client whose call just answered", async () => {
    // logging-asker's ask_at_answer writes the call's answer and a question in one write.
    const asker = { args: [path.join(FIXTURES, "logging-asker.mjs"), "legacy-only"] };
    const ambient = client("ambient");
    const alice = client("alice");
    const endpoint = await harness.connect(["stdio", "legacy"], { host: ambient }, asker);
    expect(text(await endpoint.invoke("ask_at_answer", {}, { relayTo: alice }))).toBe("will ask");
    await waitFor("a client asked", () => ambient.asked.length + alice.asked.length > 0);
    expect(alice.asked).toEqual([]);
    expect(ambient.asked).toEqual(["elicit form"]);
  });
});

describe("RelayRouter outside any call's context", () => {
  const never = new Promise<never>(() => undefined);
  const alice = client("alice");
  const bob = client("bob", { without: ["createMessage"] });

  it("goes to the endpoint's host when nothing is in flight", () => {
    const ambient = client("ambient");
    expect(new RelayRouter("s", ambient).choose({ kind: "listRoots" })).toBe(ambient);
  });

  it("goes to the one client with calls in flight, or the only one able to answer", () => {
    const router = new RelayRouter("s", client("ambient"));
    void router.during(alice, () => never);
    void router.during(alice, () => never);
    expect(router.choose({ kind: "listRoots" })).toBe(alice);
    void router.during(bob, () => never);
    expect(router.choose({ kind: "createMessage" })).toBe(alice);
    expect(router.choose({ kind: "listRoots" })).toMatchObject({ code: -32603, data: { reason: "ambiguous-client" } });
  });

  it("counts hooks built per call for one client (same `client`) as that one client", () => {
    const router = new RelayRouter("s", client("ambient"));
    const session = {};
    const first = { ...client("carol"), client: session };
    const second = { ...client("carol"), client: session };
    void router.during(first, () => never);
    void router.during(second, () => never);
    expect(router.choose({ kind: "listRoots" })).toBe(second);
    void router.during(alice, () => never);
    expect(router.choose({ kind: "listRoots" })).toMatchObject({ code: -32603, data: { reason: "ambiguous-client" } });
  });

  it("answers -32021 when the one client in flight lacks the capability", () => {
    const router = new RelayRouter("s", client("ambient"));
    void router.during(bob, () => never);
    expect(router.choose({ kind: "createMessage" })).toMatchObject({
      code: -32021,
      message: "Client does not support sampling (required for sampling/createMessage)",
      data: { requiredCapabilities: { sampling: {} } },
    });
  });
});
