/** The v2 fixture server (fixtures/modern-server.mjs) over Streamable HTTP in a child process. */
import { spawn } from "node:child_process";
import path from "node:path";
import { FIXTURES } from "./servers";

export interface ModernHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startModernHttp(args: readonly string[] = []): Promise<ModernHttpServer> {
  const child = spawn(process.execPath, [path.join(FIXTURES, "modern-server.mjs"), "http", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout.on("data", (chunk: Buffer) => {
      seen += String(chunk);
      const match = /PORT (\d+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`modern HTTP fixture exited with ${String(code)}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
