/**
 * Reconnecting one server replaces its endpoint with a fresh one (a new
 * process), leaves its peers alone, and the mounted box follows.
 */
import { mountProtocolBridge } from "@indus/fleet";
import { everythingStdio } from "@indus/testkit";
import { waitFor } from "@indus/testkit";

jest.setTimeout(120_000);

it("reconnects one server to a fresh process; peers and the box keep working", async () => {
  const { box, fleet } = await mountProtocolBridge({ servers: [everythingStdio("a"), everythingStdio("b")] });
  try {
    const oldA = fleet.endpoint("a")!;
    const b = fleet.endpoint("b")!;
    const oldPid = oldA.pid!;
    expect(oldA.phase).toBe("ready");

    const fresh = await fleet.reconnect("a");
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(oldA);
    expect(fleet.endpoint("a")).toBe(fresh);
    expect(fresh!.phase).toBe("ready");
    expect(fresh!.pid).not.toBe(oldPid);
    expect(oldA.phase).toBe("closed");
    expect(fleet.endpoint("b")).toBe(b);
    expect(b.phase).toBe("ready");
    expect([...fleet.status().keys()]).toEqual(["a", "b"]);
    await waitFor(`the old server ${oldPid} gone`, () => {
      try {
        process.kill(oldPid, 0);
        return false;
      } catch {
        return true;
      }
    });

    await box.settled();
    const outcome = await box.runner.run({ id: "1", name: "a__echo", input: { message: "again" } });
    expect(outcome).toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: again" }] });
    expect(await fleet.reconnect("nope")).toBeUndefined();
  } finally {
    await fleet.tearDown();
  }
});
