import { isProtocolFault } from "@indus/contract";
import { lateClientHost } from "../src/boot/late-client-host";

// The gateway's mounted servers get these hooks at boot, before any client
// has connected: they must declare everything, and forward once bound.

it("declares every hook and both elicitation modes, and fails as having no client until bound", async () => {
  const late = lateClientHost();
  expect(late.hooks.elicitModes).toEqual(["form", "url"]);
  const before = await late.hooks.listRoots!("fs").catch((error: unknown) => error);
  expect(isProtocolFault(before) && before.kind).toBe("not-connected");
  expect(isProtocolFault(before) && before.server).toBe("fs");
  expect((before as Error).message).toContain("roots/list");

  late.bind({
    listRoots: () => Promise.resolve([{ uri: "file:///w" }]),
    elicit: (_server, params) => Promise.resolve({ action: "accept", content: { echoed: params["message"] ?? "" } }),
  });
  await expect(late.hooks.listRoots!("fs")).resolves.toEqual([{ uri: "file:///w" }]);
  await expect(late.hooks.elicit!("fs", { message: "hi" })).resolves.toEqual({
    action: "accept",
    content: { echoed: "hi" },
  });
  // A hook the bound clients lack is still a clear refusal, not a crash.
  await expect(late.hooks.createMessage!("fs", {})).rejects.toMatchObject({ kind: "not-connected" });
});
