/**
 * MCP Apps in the agent, end to end: the scripted model calls the example
 * apps server's `show_dice`; the terminal shows the tool's text and that it
 * has a view; `/app` prints the loopback page's URL; headless Chromium (the
 * Debian `chromium` package, installed by .ci/run) opens it, the view renders
 * in its sandbox frame (a screenshot is kept), and a click inside the view
 * calls the server's app-only `roll_dice` through indusr (its permission
 * gate, then the mounted server, as the server's own log shows). The model
 * never sees the app-only tool. Leaving the session closes the page's server.
 */
import fs from "node:fs";
import path from "node:path";
import puppeteer, { type Browser, type Frame, type Page } from "puppeteer-core";
import { exampleLog, exampleLogFile, exampleStdio, waitFor } from "@indus/testkit";
import { callTool, say } from "./fake-model/fake-model-server";
import { useAgentTest } from "./support/agent-test";
import { waitForPrompt } from "./support/tmux";
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium } from "../support/chromium";

jest.setTimeout(240_000);

const t = useAgentTest();
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/** The frame holding the view's document (the sandbox's inner frame), once its button is there. */
/** Jest's ceiling is the only deadline; a hang reports the frames and console as last seen. */
async function viewFrame(page: Page, console: readonly string[]): Promise<Frame> {
  return waitFor(
    "the app's view rendered (its #roll button)",
    async () => {
      for (const frame of page.frames()) if (await frame.$("#roll").catch(() => null)) return frame;
      const title = await page.$eval("#title", (element) => element.textContent).catch(() => "?");
      const frames = page.frames().map((f) => f.url());
      throw new Error(`title: ${title}; frames: ${frames.join(", ")}; console:\n${console.join("\n")}`);
    },
    { every: 100 },
  );
}

test("/app opens the tool's view in Chromium, and a click in it calls the server's tool through indusr", async () => {
  requireChromium();
  const log = exampleLogFile();
  const offered: string[][] = [];
  const fake = await t.model([
    (request) => {
      offered.push(request.tools.map((tool) => tool.name));
      return callTool("dice__show_dice", {});
    },
    say("the dice board is open"),
  ]);
  const mcp = t.sandbox.mcpConfig({ dice: exampleStdio("apps-server", ["--log", log]) });
  const tmux = t.terminal(["--mcp", mcp, "--allow", "dice__show_dice", "--allow", "dice__roll_dice"], fake);
  await tmux.waitFor(/dice ✓/);
  await waitForPrompt(tmux);

  tmux.type("show me the dice");
  await tmux.waitFor(/▸ app 1: dice__show_dice has a view \(ui:\/\/dice\/dice\/board\.html\)/);
  await tmux.waitFor(/the dice board is open/);
  await waitForPrompt(tmux);
  // The text fallback reached the terminal; the app-only tool never reached the model.
  expect(tmux.screen()).toContain("press the button to roll a d6");
  expect(offered[0]).toContain("dice__show_dice");
  expect(offered[0]).not.toContain("dice__roll_dice");

  tmux.type("/app");
  await tmux.waitFor(/app 1 \(dice__show_dice\): http:\/\/127\.0\.0\.1:\d+\/app\/\S+/);
  const url = /app 1 \(dice__show_dice\): (http:\/\/127\.0\.0\.1:\d+\/app\/[\w-]+\?t=[\w-]+)/.exec(
    tmux.screen().replace(/\n/g, ""),
  )![1]!;

  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  await page.setViewport({ width: 900, height: 640 });
  const console: string[] = [];
  page.on("console", (message) => console.push(`${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => console.push(`pageerror: ${String(error)}`));
  page.on("requestfailed", (request) => console.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
  await page.goto(url);
  const view = await viewFrame(page, console);
  // Puppeteer's own timeout off (0): Jest's ceiling is the guard.
  await page.waitForFunction('document.body.dataset.app === "ready"', { timeout: 0 });
  const shot = path.join(t.sandbox.root, "app.png");
  await page.screenshot({ path: shot });
  if (process.env.INDUS_APP_SCREENSHOT) fs.copyFileSync(shot, process.env.INDUS_APP_SCREENSHOT);
  expect(fs.statSync(shot).size).toBeGreaterThan(1000);

  await view.click("#roll");
  await waitFor("roll_dice called at the server", () =>
    exampleLog(log).some((line) => /tools\/call roll_dice sides=6 -> \d/.test(line)),
  );
  await view.waitForFunction('/Rolled a d6: [0-9]/.test(document.getElementById("result").textContent)', {
    timeout: 0,
  });
  await tmux.waitFor(/▸ app 1 called dice__roll_dice/);

  // A token-less request is refused; leaving the session closes the page's server.
  const origin = new URL(url).origin;
  expect((await fetch(`${origin}${new URL(url).pathname}`)).status).toBe(403);
  tmux.type("/exit");
  await tmux.waitFor(/bye ·/);
  await waitFor("the page's server closed", async () =>
    fetch(origin).then(
      () => false,
      () => true,
    ),
  );
});
