import type { ToolBox, ToolDescriptor } from "@indus/contract";
import { gatewayBox } from "../src/commands/gateway-profile";

// The gateway's default (read-only) profile over a box: what it publishes,
// what it refuses, and that it works that out once per tool list, not per call.

const tool = (name: string, readOnly: boolean): ToolDescriptor => ({
  name,
  description: name,
  parameters: { type: "object" },
  wire: { name, inputSchema: { type: "object" }, annotations: { readOnlyHint: readOnly } },
});

function changingBox(first: readonly ToolDescriptor[]) {
  let list = first;
  let lists = 0;
  const ran: string[] = [];
  const box: ToolBox = {
    descriptors: () => {
      lists++;
      return list;
    },
    runner: {
      run: (call) => {
        ran.push(call.name);
        return Promise.resolve({ callId: call.id, content: [{ type: "text", text: "ran" }], isError: false });
      },
    },
  };
  return { box, ran, lists: () => lists, change: (next: readonly ToolDescriptor[]) => (list = next) };
}

describe("gatewayBox under the read-only profile", () => {
  it("hands out the same published list while the box's tools stand, a new one once they change", () => {
    const source = changingBox([tool("read", true), tool("write", false)]);
    const gated = gatewayBox(source.box, "authoring", () => "server");
    const first = gated.descriptors();
    expect(first.map((d) => d.name)).toEqual(["read"]);
    // A call looks its tool up in an index kept per list: a list rebuilt per call re-indexes every tool each time.
    expect(gated.descriptors()).toBe(first);
    source.change([tool("read", true), tool("write", true)]);
    expect(gated.descriptors().map((d) => d.name)).toEqual(["read", "write"]);
  });

  it("refuses a held-back tool by name and runs it once its server marks it read-only", async () => {
    const source = changingBox([tool("read", true), tool("write", false)]);
    const gated = gatewayBox(source.box, "authoring", () => "server");
    const refused = await gated.runner.run({ id: "1", name: "write", input: {} });
    expect(refused.isError).toBe(true);
    expect(gated.whyUnknown?.("write")).toMatch(/readOnlyHint: true/);
    expect(source.ran).toEqual([]);
    source.change([tool("read", true), tool("write", true)]);
    await gated.runner.run({ id: "2", name: "write", input: {} });
    expect(source.ran).toEqual(["write"]);
    expect(gated.whyUnknown?.("write")).toBeUndefined();
  });

  it("publishes every tool under survey and built-ins under any profile", () => {
    const source = changingBox([tool("read", true), tool("write", false), tool("bash", false)]);
    expect(
      gatewayBox(source.box, "survey", () => "server")
        .descriptors()
        .map((d) => d.name),
    ).toEqual(["read", "write", "bash"]);
    const builtins = gatewayBox(source.box, "authoring", (name) => (name === "bash" ? "built-in" : "server"));
    expect(builtins.descriptors().map((d) => d.name)).toEqual(["read", "bash"]);
  });
});
