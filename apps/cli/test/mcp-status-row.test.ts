import { statusRow } from "../src/commands/mcp-status";

it("a server that wants a sign-in is needs-login with its hint, not a fault", () => {
  const base = { id: "linear", transport: "streamable-http", toolCount: 0, connectMs: 12 };
  const row = statusRow({
    ...base,
    phase: "faulted",
    fault: { kind: "unauthorized", message: 'server "linear" needs a sign-in; sign in with `indusr mcp login linear`' },
  });
  expect(row).toEqual({
    ...base,
    phase: "needs-login",
    signIn: 'server "linear" needs a sign-in; sign in with `indusr mcp login linear`',
  });
  const crashed = { ...base, phase: "faulted" as const, fault: { kind: "transport" as const, message: "gone" } };
  expect(statusRow(crashed)).toEqual(crashed);
});

it("a ready server whose listing failed, or whose data was cut, is degraded; a healthy one ready", () => {
  const base = { id: "s", transport: "stdio", toolCount: 0, phase: "ready" as const };
  expect(statusRow(base).phase).toBe("ready");
  expect(statusRow({ ...base, listFault: { kind: "timeout", message: "timed out" } }).phase).toBe("degraded");
  expect(statusRow({ ...base, issues: ['tools/list: tool "deep" dropped'] }).phase).toBe("degraded");
});
