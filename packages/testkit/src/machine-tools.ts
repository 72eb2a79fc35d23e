/**
 * Programs the tests drive that come from the machine, not from npm (ripgrep,
 * tmux, nginx): found on PATH, and in the sbin folders where Debian puts
 * nginx for root only. A missing one fails its test with the tool's name and
 * how to install it, not with a bare assertion.
 */
import fs from "node:fs";
import path from "node:path";

const SBIN = ["/usr/local/sbin", "/usr/sbin", "/sbin"];

/** The program's path, or undefined when it is not installed. */
export function findTool(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...(env.PATH ?? "").split(path.delimiter).filter(Boolean), ...SBIN];
  for (const dir of dirs) {
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The program's path; throws naming it and its Debian package when it is not installed. */
export function requireTool(command: string, debianPackage: string = command): string {
  const found = findTool(command);
  if (found !== undefined) return found;
  throw new Error(
    `${command} is not installed (not on PATH, nor in ${SBIN.join(", ")}): this test drives it. ` +
      `Install it (Debian: apt-get install -y ${debianPackage}), or run .ci/run, which installs every tool the tests use.`,
  );
}
