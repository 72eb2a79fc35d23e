/**
 * `indusr mcp login <server> --no-browser` finished by a real browser:
 * headless Chromium opens the URL the login prints and follows the
 * authorization server's redirects, cookies and all, to the login's
 * loopback listener.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium } from "./chromium";
import { BIN, type Sandbox } from "./run-cli";

export interface BrowserLogin {
  /** The login's exit code. */
  readonly code: number | null;
  /** What the login told the person (stderr). */
  readonly stderr: string;
  /** The page the browser landed on (the loopback listener's). */
  readonly landed: string;
}

/** Runs `indusr mcp login <server>` and lets Chromium sign in at the URL it prints. */
export async function loginThroughBrowser(
  sandbox: Sandbox,
  server: string,
  config: string,
  env: NodeJS.ProcessEnv,
): Promise<BrowserLogin> {
  requireChromium();
  const child = spawn(process.execPath, [BIN, "mcp", "login", server, "--no-browser", "--mcp", config], {
    cwd: sandbox.cwd,
    env: { ...sandbox.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const printed = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(stderr)?.[1];
      if (printed !== undefined) resolve(printed);
    });
    void closed.then(() => reject(new Error(`login exited before printing a URL: ${stderr}`)));
  });
  const landed = await openInChromium(url);
  return { code: await closed, stderr, landed };
}

/** Opens `url` in a fresh headless Chromium profile; resolves with the DOM of the page it ends on. */
async function openInChromium(url: string): Promise<string> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "indus-chromium-"));
  try {
    const browser = spawn(CHROMIUM, [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, "--dump-dom", url], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    let dom = "";
    browser.stdout.setEncoding("utf8").on("data", (chunk: string) => (dom += chunk));
    const code = await new Promise<number | null>((resolve) => browser.once("close", resolve));
    if (code !== 0) throw new Error(`chromium exited ${code} at ${url}`);
    return dom;
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
