import fs from "node:fs";
import path from "node:path";
import { deckAt, tempDir } from "./helpers";

jest.setTimeout(60_000);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for `check` to hold (the event); Jest's per-test ceiling catches a hang. */
async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 50));
}

describe("bash", () => {
  const cwd = tempDir("deck-bash-");
  const { call, deck } = deckAt(cwd, { options: { bashTimeoutMs: 120_000 } });
  afterAll(() => deck.dispose());

  it("runs in the deck's cwd and reports the exit code", async () => {
    const out = await call("bash", { command: "pwd; echo err >&2" });
    expect(out.isError).toBe(false);
    expect(out.text).toContain(cwd);
    expect(out.text).toContain("err");
    expect(out.text).toMatch(/\[exit code 0 · /);
    const fail = await call("bash", { command: "exit 3" });
    expect(fail.isError).toBe(true);
    expect(fail.text).toMatch(/\(no output\)\n\[exit code 3/);
  });

  it("reports a killing signal", async () => {
    const out = await call("bash", { command: "kill -TERM $$" });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/killed by signal SIGTERM/);
  });

  it("caps output keeping head and tail", async () => {
    const out = await call("bash", { command: "seq 1 200000" });
    expect(out.isError).toBe(false);
    expect(out.text.startsWith("1\n2\n3\n")).toBe(true);
    expect(out.text).toMatch(/\n200000\n\[exit code 0/);
    expect(out.text).toMatch(/bytes omitted/);
    expect(out.text.length).toBeLessThan(40_000);
  });

  it("times out and kills the whole process group", async () => {
    const pidFile = path.join(cwd, "child.pid");
    const out = await call("bash", { command: `sleep 300 & echo $! > ${pidFile}; sleep 300`, timeout: 1_500 });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/timed out after 1.5s/);
    const child = Number(fs.readFileSync(pidFile, "utf8"));
    await waitFor(() => !alive(child));
  });

  it("cancellation through the call's AbortSignal kills the whole process group", async () => {
    const pidFile = path.join(cwd, "cancel.pid");
    const controller = new AbortController();
    const pending = call("bash", { command: `sleep 300 & echo $! > ${pidFile}; wait` }, controller.signal);
    await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim() !== "");
    const child = Number(fs.readFileSync(pidFile, "utf8"));
    expect(alive(child)).toBe(true);
    controller.abort();
    const out = await pending;
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/cancelled/);
    await waitFor(() => !alive(child));
  });

  it("closes stdin so interactive commands see EOF, and refuses a missing cwd", async () => {
    const out = await call("bash", { command: "cat; echo done" });
    expect(out.text).toMatch(/^done/);
    expect((await call("bash", { command: "true", cwd: "no/such/dir" })).isError).toBe(true);
  });
});

describe("process", () => {
  const cwd = tempDir("deck-proc-");
  const { call, deck } = deckAt(cwd);
  afterAll(() => deck.dispose());

  it("starts, lists, reads incrementally and stops a background process group", async () => {
    const started = await call("process", {
      action: "start",
      name: "ticker",
      command:
        "sleep 300 & echo $! > grandchild.pid; for i in $(seq 1 5); do echo tick $i; done; echo oops >&2; sleep 300",
    });
    expect(started.isError).toBe(false);
    expect(started.text).toMatch(/^Started p1 \(pid \d+\) running/);
    await waitFor(() => fs.existsSync(path.join(cwd, "grandchild.pid")));
    const list = await call("process", { action: "list" });
    expect(list.text).toMatch(/p1 \[ticker\]\s+pid \d+\s+running/);
    // The last thing the command writes before its final sleep has arrived.
    await waitFor(() => deck.session.processes().get("p1")?.stderr.tail(1).includes("oops") === true);
    const first = await call("process", { action: "read", id: "p1" });
    // start already showed the output produced in its first moments; read continues from there.
    const seen = started.text + first.text;
    expect(seen).toContain("tick 5");
    expect(seen).toContain("--- stderr ---\noops");
    const second = await call("process", { action: "read", id: "ticker" });
    expect(second.text).toContain("(no new output)");
    expect((await call("process", { action: "read", id: "p1", tail: 2 })).text).toContain("tick 4\ntick 5");
    const grandchild = Number(fs.readFileSync(path.join(cwd, "grandchild.pid"), "utf8"));
    const stopped = await call("process", { action: "stop", id: "p1" });
    expect(stopped.text).toMatch(/killed by SIGTERM/);
    await waitFor(() => !alive(grandchild));
  });

  it("keeps bounded buffers and reports dropped lines", async () => {
    // The output comes once the test says so, after `start` read what arrived in its first moments.
    const command = "while [ ! -e go-bounded ]; do sleep 0.02; done; seq 1 5000";
    const started = await call("process", { action: "start", command });
    const id = /Started (p\d+)/.exec(started.text)?.[1] as string;
    fs.writeFileSync(path.join(cwd, "go-bounded"), "");
    // Exited, with its streams drained.
    await deck.session.processes().get(id)!.done;
    const out = await call("process", { action: "read", id });
    expect(out.text).toMatch(/exited with code 0/);
    expect(out.text).toMatch(/\[(\d+) older lines dropped/);
    expect(out.text).toContain("\n5000");
    expect(out.text).not.toContain("\n3000\n");
  });

  it("reports a process that fails at once, and guards its input", async () => {
    const bad = await call("process", { action: "start", command: "exit 7" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/exited with code 7/);
    expect((await call("process", { action: "read", id: "p99" })).text).toMatch(/no process "p99"/);
    expect((await call("process", { action: "jump" })).text).toMatch(/"action" must be one of/);
  });
});
