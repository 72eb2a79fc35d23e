/**
 * The `indusr` entry point, built as a file of its own that imports only Node builtins:
 * `--version` answers after loading this one small module (no shared chunks),
 * and every other command loads the command tree (`program.js`), which loads
 * only the module the command needs. The installed command is its CommonJS
 * build (`indusr.cjs`): Node starts that without its ES module loader.
 */
import { writeSync } from "node:fs";
import type * as Program from "./program";
import { VERSION } from "./version";

/**
 * Writes the version to fd 1 directly: `process.stdout` on a pipe loads Node's stream and net modules (~30 of
 * them), more than `node -e 0` loads in all. A descriptor that cannot take it now (non-blocking, closed) gets the
 * stream after all.
 */
function printVersion(): void {
  const line = `${VERSION}\n`;
  try {
    writeSync(1, line);
  } catch {
    process.stdout.write(line);
  }
}

/** Node 22.1+ caches the compiled bundle on disk; on older Nodes this does nothing. */
function enableCompileCache(): void {
  // Node 20's types do not know it yet.
  const nodeModule = process.getBuiltinModule("node:module") as { enableCompileCache?: () => unknown };
  nodeModule.enableCompileCache?.();
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  printVersion();
} else {
  enableCompileCache();
  // Ref'd until main() settles: teardown waits on unref'd timers, and Node must
  // not call the loop empty (exit 0) before the command's exit code is set.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  // Not a literal, so the bundler leaves the command tree in its own file; Node resolves it beside this one.
  const commandTree = "./program.js";
  (import(commandTree) as Promise<typeof Program>)
    .then(({ main }) => main(argv))
    .then(
      (code) => {
        // A signal's 128+n stands; otherwise the command's own code.
        if (typeof process.exitCode !== "number" || process.exitCode < 128) process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(`indusr: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exitCode = 1;
      },
    )
    .finally(() => clearInterval(keepAlive));
}
