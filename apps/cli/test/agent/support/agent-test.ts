/**
 * Per-test plumbing for the subprocess agent tests: a fresh sandbox per test,
 * the scripted model and the terminal (tmux) a test starts, all cleaned up
 * after it (terminal first, then model, then sandbox), and the private copy
 * of the binary removed after the file.
 */
import { startFakeModel, type FakeModelServer, type Protocol, type Step } from "../fake-model/fake-model-server";
import { agentSandbox, bin, removeBinSnapshot, type AgentSandbox } from "./agent-cli";
import { TmuxSession } from "./tmux";

export interface AgentTest {
  /** This test's sandbox (only inside a test). */
  readonly sandbox: AgentSandbox;
  /** Start the scripted model for this test; it is closed after the test. */
  model(script: Step[]): Promise<FakeModelServer>;
  /**
   * The interactive `indusr` with `args`, talking to `model`, on a fresh
   * terminal in the sandbox; killed after the test.
   */
  terminal(args: readonly string[], model: FakeModelServer): TmuxSession;
}

export function useAgentTest(): AgentTest {
  let sandbox: AgentSandbox | undefined;
  let fake: FakeModelServer | undefined;
  let tmux: TmuxSession | undefined;
  const current = (): AgentSandbox => {
    if (!sandbox) throw new Error("the sandbox exists only inside a test");
    return sandbox;
  };
  beforeEach(() => {
    sandbox = agentSandbox();
  });
  afterEach(async () => {
    tmux?.kill();
    tmux = undefined;
    await fake?.close();
    fake = undefined;
    sandbox?.cleanup();
  });
  afterAll(() => removeBinSnapshot());
  return {
    get sandbox(): AgentSandbox {
      return current();
    },
    async model(script) {
      fake = await startFakeModel({ script });
      return fake;
    },
    terminal(args, model) {
      const box = current();
      tmux = TmuxSession.start(
        [
          process.execPath,
          bin(),
          "--session-dir",
          box.sessions,
          ...args,
          "--base-url",
          model.baseUrl,
          "--model",
          "fake-model",
        ],
        { cwd: box.cwd, env: box.env, scriptDir: box.root },
      );
      return tmux;
    },
  };
}

/** The model name the tests ask the fake model for in `protocol`. */
export const fakeModelName = (protocol: Protocol): string => (protocol === "anthropic" ? "claude-test" : "fake-model");

/** The flags that point `indusr` at the fake model in `protocol`. */
export const modelArgs = (server: FakeModelServer, protocol: Protocol = "openai"): string[] => [
  "--provider",
  protocol,
  "--base-url",
  server.baseUrl,
  "--model",
  fakeModelName(protocol),
];

/** The flags that point `indusr` at the fake model (OpenAI protocol). */
export const openAiModelArgs = (server: FakeModelServer): string[] => [
  "--provider",
  "openai",
  "--base-url",
  server.baseUrl,
  "--model",
  "m",
];
