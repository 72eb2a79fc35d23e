import { trackEndpoints } from "./helpers/tracked";
import { fixture, scripted } from "./helpers/servers";

jest.setTimeout(60_000);

const make = trackEndpoints();

// Faults carry what they know as fields, so a host never parses `message`.
it("puts the server id, exit code and stderr tail of a server that exits at once on the fault", async () => {
  const endpoint = make(fixture("quitter", "exit-at-once.mjs"));
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({
    kind: "spawn-failed",
    server: "quitter",
    exitCode: 3,
    stderrTail: ["fatal: DATABASE_URL is not set"],
  });
});

it("puts the server id, exit code and stderr tail on the faults of calls in flight when the server crashes", async () => {
  const endpoint = make(scripted("crashy"));
  await endpoint.open();
  const fault = await endpoint.invoke("crash", { code: 7 }).catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "transport", server: "crashy", exitCode: 7 });
  expect((fault as { stderrTail?: string[] }).stderrTail?.join("\n")).toContain("crashing on purpose");
});

it("names the server on a fault of a server that does not exist, with no exit code", async () => {
  const endpoint = make({ transport: "stdio", id: "ghost", command: "indus-no-such-binary", args: [], env: {} });
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "spawn-failed", server: "ghost" });
  expect(fault).not.toHaveProperty("exitCode");
});
