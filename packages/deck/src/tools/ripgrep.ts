/**
 * Finding and running ripgrep. `grep` and `find` use it when it is on PATH
 * (it is gitignore-aware and parallel); otherwise, or when forced, they use
 * the JS walker. The choice is per deck: option, then `INDUS_SEARCH_ENGINE`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { DeckOptions } from "../options";
import { envOf } from "../options";

const lookups = new Map<string, string | undefined>();

/** The `rg` executable on this PATH, if any (cached per PATH value). */
export function findRipgrep(pathVar: string | undefined = process.env.PATH): string | undefined {
  const key = pathVar ?? "";
  if (lookups.has(key)) return lookups.get(key);
  let found: string | undefined;
  for (const dir of key.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, process.platform === "win32" ? "rg.exe" : "rg");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) {
        found = candidate;
        break;
      }
    } catch {
      // not here
    }
  }
  lookups.set(key, found);
  return found;
}

export type ResolvedEngine = { readonly kind: "ripgrep"; readonly binary: string } | { readonly kind: "js" };

/** The engine `grep` and `find` use under these options: ripgrep when wanted and on PATH, else JS. */
export function resolveSearchEngine(options: DeckOptions): ResolvedEngine {
  const env = envOf(options);
  const wanted = options.searchEngine ?? (env.INDUS_SEARCH_ENGINE as DeckOptions["searchEngine"]) ?? "auto";
  if (wanted === "js") return { kind: "js" };
  const binary = findRipgrep(env.PATH);
  return binary === undefined ? { kind: "js" } : { kind: "ripgrep", binary };
}

/** ripgrep's defaults as the tools use them, matched by the JS walker. */
export const RG_BASE_ARGS = [
  "--no-config",
  "--color=never",
  "--no-messages",
  "--hidden",
  "--no-require-git",
  "--glob=!.git",
] as const;

export interface RgRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  /** Output went past `maxBytes` and ripgrep was stopped. */
  readonly truncated: boolean;
}

/** Where and how long ripgrep runs: its folder, its cancellation, and how much output is read before it is stopped. */
export interface RgLimits {
  readonly cwd: string;
  readonly signal: AbortSignal;
  readonly maxBytes: number;
}

export function runRipgrep(
  binary: string,
  args: readonly string[],
  { cwd, signal, maxBytes }: RgLimits,
): Promise<RgRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = "";
    const onAbort = () => child.kill("SIGKILL");
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      if (truncated) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) {
        truncated = true;
        child.kill("SIGKILL");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString("utf8");
    });
    child.once("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.once("close", (code) => {
      signal.removeEventListener("abort", onAbort);
      if (signal.aborted) {
        reject(new Error("cancelled"));
        return;
      }
      let stdout = Buffer.concat(chunks).toString("utf8");
      if (truncated) {
        // Drop the partial last record.
        const cut = stdout.lastIndexOf("\n");
        stdout = cut === -1 ? "" : stdout.slice(0, cut + 1);
      }
      resolve({ stdout, stderr: stderr.trim(), exitCode: code, truncated });
    });
  });
}
