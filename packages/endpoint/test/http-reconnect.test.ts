/**
 * A remote server lost mid-session reconnects by itself, as Claude Code's do
 * (no `reconnect` in its config): a real server-everything over HTTP is
 * killed while the endpoint idles, the loss is noticed without a call, and
 * once the server is started again on its port the endpoint is back.
 */
import { sseServer, streamableHttpServer, type EndpointPhase } from "@indus/contract";
import { createServerEndpoint, type McpServerEndpoint } from "@indus/endpoint";
import { waitFor } from "@indus/testkit";
import { startEverythingHttp, type EverythingHttp } from "./helpers/everything-http";

// Two server starts and a backoff of up to 16 s between attempts.
jest.setTimeout(150_000);

/** Resolves when `endpoint` enters `phase`, however briefly (no deadline of its own: the test's ceiling). */
async function entered(endpoint: McpServerEndpoint, phase: EndpointPhase): Promise<void> {
  let reached = false;
  const off = endpoint.onPhaseChanged((now) => (reached ||= now === phase));
  try {
    await waitFor(`endpoint enters ${phase}`, () => {
      if (reached) return true;
      throw new Error(`now ${endpoint.phase}`);
    });
  } finally {
    off();
  }
}

const servers: EverythingHttp[] = [];
const endpoints: McpServerEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

it.each([
  ["Streamable HTTP", "streamableHttp", streamableHttpServer] as const,
  ["legacy SSE", "sse", sseServer] as const,
])("a %s server killed while idle is noticed, and is back once it restarts", async (_name, mode, configOf) => {
  const first = await startEverythingHttp(mode);
  servers.push(first);
  const endpoint = createServerEndpoint(configOf("everything", first.url));
  endpoints.push(endpoint);
  await endpoint.open();

  const lost = entered(endpoint, "connecting");
  await first.stop();
  await lost;
  expect(endpoint.fault?.message).toMatch(/connection refused|connection reset/);
  await expect(endpoint.invoke("echo", { message: "while gone" })).rejects.toMatchObject({ kind: "not-connected" });

  const back = entered(endpoint, "ready");
  servers.push(await startEverythingHttp(mode, first.port));
  await back;
  expect(endpoint.fault).toBeUndefined();
  await expect(endpoint.invoke("echo", { message: "back" })).resolves.toMatchObject({
    content: [{ type: "text", text: "Echo: back" }],
  });
});
