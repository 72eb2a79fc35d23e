/**
 * The relay fixture (fixtures/relay-server.mjs): a v2-SDK server in both eras
 * whose tools carry full metadata and ask the client for input, log,
 * complete and update subscribed resources. Over stdio (a config) or over
 * Streamable HTTP in a child process.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { JsonObject, StdioServerConfig } from "@indus/contract";
import { FIXTURES, fixture } from "./servers";

/** The relay fixture over stdio; `args` as the script takes them (`legacy=reject`, ...). */
export function relay(id: string, args: readonly string[] = [], extra: Partial<StdioServerConfig> = {}) {
  return fixture(id, "relay-server.mjs", args, extra);
}

/** What the relay fixture lists (`tools`) and what its `rich` tool answers, exactly as sent. */
export function relayData(): { readonly tools: readonly JsonObject[]; readonly richResult: JsonObject } {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, "relay-data.json"), "utf8")) as {
    tools: JsonObject[];
    richResult: JsonObject;
  };
}

export interface FixtureHttpServer {
  readonly url: string;
  close(): Promise<void>;
}
export type RelayHttpServer = FixtureHttpServer;

/** A fixture script that takes `http` and prints `PORT <n>`, started on 127.0.0.1 in a child process. */
export async function startFixtureHttp(file: string, args: readonly string[] = []): Promise<FixtureHttpServer> {
  const child = spawn(process.execPath, [path.join(FIXTURES, file), "http", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout.on("data", (chunk: Buffer) => {
      seen += String(chunk);
      const match = /PORT (\d+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`${file} over HTTP exited with ${String(code)}`)));
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

/** The relay fixture over Streamable HTTP on 127.0.0.1 (a free port). */
export function startRelayHttp(args: readonly string[] = []): Promise<RelayHttpServer> {
  return startFixtureHttp("relay-server.mjs", args);
}
