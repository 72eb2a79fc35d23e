/**
 * examples/nginx/nginx.conf in front of two gateway replicas, as the tests run
 * it: Debian's nginx in the foreground with its own prefix folder, on loopback.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { requireTool } from "./machine-tools";
import { waitFor } from "./wait-for";

const EXAMPLE = path.join(__dirname, "..", "..", "..", "examples", "nginx", "nginx.conf");

/** A running nginx front. */
export interface NginxFront {
  readonly port: number;
  /** A URL on the front (default: the MCP endpoint, `/mcp`). */
  url(route?: string): URL;
  /** The access log's lines (`status upstream=… session="…" method="…" "request"`), the first `skip` characters left out. */
  accessLog(skip?: number): string[];
  /** The access log's length in characters now, to read only what comes after. */
  accessLogSize(): number;
  /** SIGQUIT (nginx's graceful stop) and the exit. */
  stop(): Promise<void>;
}

/** Where and in front of what nginx runs; `ready` is the route that must answer 200 through it (default `/healthz`). */
export interface NginxFrontOptions {
  prefix: string;
  port: number;
  replicas: readonly [number, number];
  ready?: string;
}

/**
 * Starts nginx and waits until `ready` answers 200 through it: the access log must show the request, so a
 * port that something else took (a replica answering where nginx failed to bind) is a failure naming nginx's
 * stderr, never a silent pass-by.
 */
export async function startNginxFront(options: NginxFrontOptions): Promise<NginxFront> {
  writeConfig(options);
  const child = spawn(requireTool("nginx"), ["-p", options.prefix, "-c", "nginx.conf", "-e", "stderr"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const front = nginxFront(child, options);
  const ready = options.ready ?? "/healthz";
  await waitFor(
    `nginx answering ${ready} on 127.0.0.1:${options.port}`,
    async () =>
      (await fetch(front.url(ready)).catch(() => undefined))?.status === 200 &&
      front.accessLog().some((line) => line.includes(`"GET ${ready} `)),
    {
      every: 100,
      failure: () => (child.exitCode === null && child.signalCode === null ? undefined : `nginx exited: ${stderr}`),
    },
  );
  return front;
}

function writeConfig({ prefix, port, replicas }: NginxFrontOptions): void {
  for (const dir of ["logs", "temp"]) fs.mkdirSync(path.join(prefix, dir), { recursive: true });
  const config = fs
    .readFileSync(EXAMPLE, "utf8")
    .replaceAll("127.0.0.1:3401", `127.0.0.1:${replicas[0]}`)
    .replaceAll("127.0.0.1:3402", `127.0.0.1:${replicas[1]}`)
    .replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`);
  fs.writeFileSync(path.join(prefix, "nginx.conf"), config);
}

function nginxFront(child: ChildProcess, { prefix, port }: NginxFrontOptions): NginxFront {
  const logFile = path.join(prefix, "logs", "access.log");
  const read = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "");
  return {
    port,
    url: (route = "/mcp") => new URL(`http://127.0.0.1:${port}${route}`),
    accessLog: (skip = 0) => read().slice(skip).split("\n").filter(Boolean),
    accessLogSize: () => read().length,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGQUIT");
      await exited;
    },
  };
}
