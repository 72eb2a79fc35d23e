/**
 * A server's request withdrawn (its hook's signal aborted: the server
 * cancelled it, or the call behind it was cancelled) leaves the terminal: the
 * question on the prompt line is taken away, the user is told, and nothing
 * is sent; one still waiting its turn is never shown.
 */
import type { JsonObject } from "@indus/contract";
import { AgentClientHost, type HostBinding } from "../../src/agent/host/agent-client-host";
import type { AgentEvent } from "../../src/agent/events";
import type { TerminalPrompter } from "../../src/agent/host/terminal-form";
import type { SamplingModel } from "../../src/agent/host/sampling";
import { makeStyle } from "../../src/agent/render";

const FORM: JsonObject = {
  message: "Who are you?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
};
const SAMPLING: JsonObject = {
  messages: [{ role: "user", content: { type: "text", text: "2+2?" } }],
  maxTokens: 10,
};

/** A person who never answers: each question waits until it is taken away. */
function silentTerminal() {
  const shown: string[] = [];
  const asked: string[] = [];
  const terminal: TerminalPrompter = {
    style: makeStyle(false),
    width: 100,
    print: (line) => shown.push(line),
    ask: (question, withdrawn) => {
      asked.push(question);
      return new Promise((resolve) => withdrawn?.addEventListener("abort", () => resolve(undefined), { once: true }));
    },
  };
  return { terminal, shown, asked };
}

function boundHost() {
  const { terminal, shown, asked } = silentTerminal();
  const events: AgentEvent[] = [];
  const host = new AgentClientHost({ cwd: process.cwd() });
  const model = {
    get model(): never {
      throw new Error("the model must not be asked");
    },
    modelId: "none",
    maxRetries: 0,
  } as unknown as SamplingModel;
  const binding: HostBinding = {
    terminal,
    signal: () => new AbortController().signal,
    model,
    countUsage: () => undefined,
    emit: (event) => events.push(event),
    openUrl: () => Promise.resolve(false),
  };
  host.bind(binding);
  return { hooks: host.hooks(), shown, asked, events };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

test("a form withdrawn while on the prompt line leaves it, and the user is told", async () => {
  const { hooks, shown, asked, events } = boundHost();
  const withdraw = new AbortController();
  const answer = hooks.elicit!("everything", FORM, withdraw.signal);
  await until(() => asked.length === 1);
  withdraw.abort("changed my mind");
  await expect(answer).rejects.toThrow(/withdrawn/);
  expect(shown.at(-1)).toBe("◆ everything withdrew its question (changed my mind); nothing was sent");
  expect(asked).toHaveLength(1);
  expect(events).toEqual([
    {
      type: "host_request",
      server: "everything",
      request: "form",
      outcome: "cancel",
      reason: "the server withdrew it",
    },
  ]);
});

test("a question withdrawn while another is shown is never shown", async () => {
  const { hooks, shown, asked } = boundHost();
  const first = new AbortController();
  const second = new AbortController();
  const shownFirst = hooks.elicit!("alpha", FORM, first.signal);
  const queued = hooks.elicit!("beta", FORM, second.signal);
  await until(() => asked.length === 1);
  second.abort();
  first.abort();
  await expect(shownFirst).rejects.toThrow(/withdrawn/);
  await expect(queued).rejects.toThrow(/withdrawn/);
  expect(asked).toHaveLength(1);
  expect(shown.some((line) => line.includes("beta"))).toBe(false);
});

test("a sampling request withdrawn during its approval never reaches the model", async () => {
  const { hooks, shown, asked } = boundHost();
  const withdraw = new AbortController();
  const answer = hooks.createMessage!("everything", SAMPLING, withdraw.signal);
  await until(() => asked.length === 1);
  withdraw.abort();
  await expect(answer).rejects.toThrow(/withdrawn/);
  expect(shown.at(-1)).toBe("◆ everything withdrew its sampling request; nothing was sent");
});
