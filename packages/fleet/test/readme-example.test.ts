/** The README's example, with locally installed servers instead of `npx` and a local HTTP server. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stdioServer, streamableHttpServer } from "@indus/contract";
import { mountProtocolBridge } from "@indus/fleet";
import { npmServerEntry } from "@indus/testkit";
import { startStreamableServer } from "@indus/testkit";

jest.setTimeout(60_000);

it("runs the README example", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "indus-fleet-readme-"));
  const remote = await startStreamableServer({ name: "remote" });
  try {
    const { box, fleet } = await mountProtocolBridge({
      servers: [
        stdioServer("fs", process.execPath, [npmServerEntry("server-filesystem"), dir]),
        { ...streamableHttpServer("remote", remote.url, { authorization: "Bearer t0ken" }), excludeTools: ["sleep"] },
      ],
    });
    const names = box.descriptors().map((descriptor) => descriptor.name);
    expect(names).toContain("fs__list_directory");
    expect(names).toContain("remote__echo");
    expect(names).not.toContain("remote__sleep");
    const outcome = await box.runner.run({ id: "call-1", name: "fs__list_directory", input: { path: dir } });
    expect(outcome.isError).toBe(false);
    expect([...fleet.status()].map(([id, status]) => `${id} ${status.phase}`)).toEqual(["fs ready", "remote ready"]);
    const off = box.onDescriptorsChanged(() => undefined);
    off();
    await fleet.tearDown();
  } finally {
    await remote.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
