/**
 * server-everything started with its `sse` or `streamableHttp` transport on a
 * free port (it reads PORT from the environment and does not report a port it
 * was given as 0, so we pick one), bound to 127.0.0.1 (fixtures/loopback.cjs:
 * it would listen on every interface), in its own process group so the test
 * can take it down completely.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "./ports";
import { FIXTURES, npmServerEntry } from "./servers";

const LOOPBACK = path.join(FIXTURES, "loopback.cjs");

export interface EverythingHttp {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  stop(): Promise<void>;
}

async function startOnce(mode: "sse" | "streamableHttp", port: number): Promise<EverythingHttp | undefined> {
  const child: ChildProcess = spawn(process.execPath, ["-r", LOOPBACK, npmServerEntry("server-everything"), mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.resume();
  // No deadline of its own (a starved start can take long): it listens, or exits (the port was taken).
  const ready = await new Promise<boolean>((resolve) => {
    let seen = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port|running on port/i.test(seen)) resolve(true);
    });
    child.once("exit", () => resolve(false));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
    await exited;
  };
  if (!ready) {
    await stop();
    return undefined;
  }
  const path = mode === "sse" ? "/sse" : "/mcp";
  return { url: `http://127.0.0.1:${port}${path}`, port, pid: child.pid!, stop };
}

/**
 * Start server-everything over HTTP; retries if the picked port was taken
 * meanwhile. `port`: on that port (a server restarted where it was).
 */
export async function startEverythingHttp(mode: "sse" | "streamableHttp", port?: number): Promise<EverythingHttp> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const started = await startOnce(mode, port ?? (await freePort()));
    if (started) return started;
  }
  throw new Error(`server-everything ${mode} did not start`);
}
