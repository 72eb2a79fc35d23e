/**
 * The `indusr` entry point. Kept tiny: `--version` answers without loading
 * anything else; every other command loads only the module it needs.
 */
import { VERSION } from "./version";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  process.stdout.write(`${VERSION}\n`);
} else {
  // Ref'd until main() settles: teardown waits on unref'd timers, and Node must
  // not call the loop empty (exit 0) before the command's exit code is set.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  import("./program")
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
