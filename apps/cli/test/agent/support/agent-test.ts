/**
 * Per-test plumbing for the subprocess agent tests: a fresh sandbox per test,
 * the scripted model a test starts, both cleaned up after it, and the private
 * copy of the binary removed after the file.
 */
import { startFakeModel, type FakeModelServer, type Step } from "../fake-model/fake-model-server";
import { agentSandbox, removeBinSnapshot, type AgentSandbox } from "./agent-cli";

export interface AgentTest {
  /** This test's sandbox (only inside a test). */
  readonly sandbox: AgentSandbox;
  /** Start the scripted model for this test; it is closed after the test. */
  model(script: Step[]): Promise<FakeModelServer>;
}

export function useAgentTest(): AgentTest {
  let sandbox: AgentSandbox | undefined;
  let fake: FakeModelServer | undefined;
  beforeEach(() => {
    sandbox = agentSandbox();
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    sandbox?.cleanup();
  });
  afterAll(() => removeBinSnapshot());
  return {
    get sandbox(): AgentSandbox {
      if (!sandbox) throw new Error("the sandbox exists only inside a test");
      return sandbox;
    },
    async model(script) {
      fake = await startFakeModel({ script });
      return fake;
    },
  };
}

/** The flags that point `indusr` at the fake model (OpenAI protocol). */
export const openAiModelArgs = (server: FakeModelServer): string[] => [
  "--provider",
  "openai",
  "--base-url",
  server.baseUrl,
  "--model",
  "m",
];
