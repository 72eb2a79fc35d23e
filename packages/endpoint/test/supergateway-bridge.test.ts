/**
 * supergateway 4.0's Streamable HTTP bridge (the real package) in front of
 * server-everything mounts in `auto`: a `server/discover` probe that fails
 * there (it times out while the bridge starts a child for it, or spoils the
 * bridge's session so its `initialize` is refused) is followed by a legacy
 * attempt on a fresh connection, and that verdict is remembered.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { memoryEraVerdictStore, streamableHttpServer, type EraVerdict, type EraVerdictStore } from "@indus/contract";
import { createServerEndpoint } from "@indus/endpoint";
import { freePort, npmServerEntry } from "@indus/testkit";

const SUPERGATEWAY = path.join(path.dirname(require.resolve("supergateway/package.json")), "dist", "index.js");

/** The bridge, resolved once it says it listens. */
async function startBridge(extra: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const command = `${process.execPath} ${npmServerEntry("server-everything")} stdio`;
  const args = [SUPERGATEWAY, "--stdio", command, "--outputTransport", "streamableHttp", ...extra, "--port", `${port}`];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes("Listening on port")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`supergateway exited with ${code}: ${seen}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

// Stateful only: in front of the stateless bridge (a server-everything child per
// request) the connect does not finish at present; that case is open.
it.each([[["--stateful"]]])("mounts supergateway %j in front of server-everything", async (extra) => {
  const bridge = await startBridge(extra);
  const memory = memoryEraVerdictStore();
  const saved: EraVerdict[] = [];
  const verdicts: EraVerdictStore = {
    load: (identity) => memory.load(identity),
    forget: (identity) => memory.forget(identity),
    save: (identity, verdict) => {
      saved.push(verdict);
      return memory.save(identity, verdict);
    },
  };
  const endpoint = createServerEndpoint(streamableHttpServer("bridge", bridge.url), undefined, {
    eraVerdicts: verdicts,
  });
  try {
    await endpoint.open();
    expect(endpoint.phase).toBe("ready");
    const names = (await endpoint.listTools()).map((tool) => tool.ref.name);
    expect(names).toContain("echo");
    const echoed = await endpoint.invoke("echo", { message: "through the bridge" });
    expect(echoed.content).toEqual([{ type: "text", text: "Echo: through the bridge" }]);
    // Remembered: the next run connects without probing.
    expect(saved.map((verdict) => verdict.kind)).toEqual([expect.stringMatching(/^(legacy|modern)$/)]);
  } finally {
    await endpoint.close();
    bridge.child.kill("SIGTERM");
  }
});
