import type { ClientHostHooks, JsonObject } from "@indus/contract";
import { EndpointFleet, MountedToolBox } from "@indus/fleet";
import { fakeEndpoints, fakeServer } from "@indus/fleet/testing";

// A gateway republishes what the mounted box hands it: the tool and the call
// result as the server sent them, and each call runs for the client that made
// it. Fakes stand in for the endpoint (which fills `wire` from the wire).

const rawResult: JsonObject = {
  content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png", _meta: { kept: true } }],
  structuredContent: { n: 1 },
  isError: false,
  _meta: { trace: "t-1" },
};

async function mounted(names?: "as-is") {
  const fakes = fakeEndpoints({
    s: {
      tools: [
        {
          name: "shot",
          description: "takes a picture",
          parameters: { type: "object", $defs: { a: { type: "string" } }, properties: { a: { $ref: "#/$defs/a" } } },
          annotations: { readOnlyHint: true },
          wire: { title: "Shot", outputSchema: { type: "object" }, _meta: { ui: "x" } },
          run: () => ({
            content: rawResult["content"] as JsonObject[],
            structuredContent: { n: 1 },
            isError: false,
            wire: rawResult,
          }),
        },
      ],
    },
  });
  const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint }, (endpoint) => endpoint.listTools());
  const box = new MountedToolBox(fleet, names ? { names } : {});
  await fleet.start({ servers: [fakeServer("s")] });
  await box.settled();
  return { fakes, box };
}

it("carries each tool's wire form on its descriptor, under either naming", async () => {
  const { box } = await mounted();
  expect(box.descriptors()[0]).toMatchObject({
    name: "s__shot",
    wire: {
      name: "shot",
      title: "Shot",
      outputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
      _meta: { ui: "x" },
      inputSchema: { $defs: { a: { type: "string" } } },
    },
  });
  const asIs = await mounted("as-is");
  expect(asIs.box.descriptors()[0]).toMatchObject({ name: "shot", wire: { name: "shot", title: "Shot" } });
});

it("hands the call's relayTo to the endpoint and the server's result back unchanged as wire", async () => {
  const { fakes, box } = await mounted();
  const relayTo: ClientHostHooks = { elicit: () => Promise.resolve({ action: "decline" }) };
  const outcome = await box.runner.run({ id: "c1", name: "s__shot", input: { a: "b" } }, { relayTo });
  expect(fakes.latest("s")!.calls).toEqual([{ name: "shot", args: { a: "b" }, relayTo }]);
  expect(outcome.wire).toEqual(rawResult);
  // The model's view stays projected: the image rides as a JSON block.
  expect(outcome.content[0]).toMatchObject({ type: "json" });
  expect(outcome.structuredContent).toEqual({ n: 1 });
});

it("runs a call with no relayTo without inventing one", async () => {
  const { fakes, box } = await mounted();
  await box.runner.run({ id: "c2", name: "s__shot", input: {} });
  expect(fakes.latest("s")!.calls[0]).not.toHaveProperty("relayTo");
});
