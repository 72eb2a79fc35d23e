import {
  FAULT_KINDS,
  brandFault,
  ProtocolFault,
  isFaultKind,
  isIndusFault,
  isProtocolFault,
  protocolFault,
} from "@indus/contract";

describe("fault model", () => {
  it("has exactly these kinds in a stable order", () => {
    expect(FAULT_KINDS).toEqual([
      "transport",
      "protocol",
      "timeout",
      "tool-error",
      "not-connected",
      "spawn-failed",
      "unauthorized",
      "withheld",
    ]);
  });

  it("builds a fault with kind, plain message and the cause on the standard field", () => {
    const cause = new Error("ECONNREFUSED");
    const fault = protocolFault("transport", "could not reach http://127.0.0.1:9/mcp", cause);
    expect(fault).toBeInstanceOf(Error);
    expect(fault).toBeInstanceOf(ProtocolFault);
    expect(fault.kind).toBe("transport");
    expect(fault.message).toBe("could not reach http://127.0.0.1:9/mcp");
    expect(fault.message).not.toMatch(/transport/);
    expect(fault.cause).toBe(cause);
    expect(fault.name).toBe("ProtocolFault");
  });

  it("leaves cause unset when none is given", () => {
    const fault = protocolFault("timeout", "slow");
    expect("cause" in fault).toBe(false);
  });

  it("keeps a non-Error cause as is", () => {
    expect(protocolFault("protocol", "bad page", { code: -32600 }).cause).toEqual({ code: -32600 });
  });

  it("narrows faults and nothing else", () => {
    expect(isProtocolFault(protocolFault("spawn-failed", "ENOENT"))).toBe(true);
    expect(isProtocolFault(new Error("plain"))).toBe(false);
    expect(isProtocolFault({ kind: "transport", message: "x" })).toBe(false);
    expect(isProtocolFault(null)).toBe(false);
    expect(isProtocolFault("transport")).toBe(false);
  });

  it("recognises a fault from a second copy of the package by shape", () => {
    const foreign = Object.assign(new Error("from elsewhere"), { name: "ProtocolFault", kind: "tool-error" });
    expect(isProtocolFault(foreign)).toBe(true);
    const wrongKind = Object.assign(new Error("x"), { name: "ProtocolFault", kind: "nope" });
    expect(isProtocolFault(wrongKind)).toBe(false);
  });

  it("guards fault kinds", () => {
    for (const kind of FAULT_KINDS) expect(isFaultKind(kind)).toBe(true);
    expect(isFaultKind("Transport")).toBe(false);
    expect(isFaultKind(3)).toBe(false);
  });
});

describe("structured fault fields", () => {
  it("carries server, exit code, stderr tail and data as fields", () => {
    const fault = protocolFault("spawn-failed", "server exited", undefined, {
      server: "files",
      exitCode: 3,
      stderrTail: ["boom"],
      data: { code: -32000 },
    });
    expect(fault).toMatchObject({ server: "files", exitCode: 3, stderrTail: ["boom"], data: { code: -32000 } });
    expect("cause" in fault).toBe(false);
  });

  it("carries the server's JSON-RPC error code", () => {
    const fault = protocolFault("tool-error", "server said no", undefined, { server: "s", rpcCode: -32021 });
    expect(fault.rpcCode).toBe(-32021);
    expect("rpcCode" in protocolFault("timeout", "slow")).toBe(false);
  });

  it("leaves absent fields absent (not undefined-valued)", () => {
    const fault = new ProtocolFault("timeout", "slow", { server: "s" });
    expect(Object.keys(fault)).not.toContain("exitCode");
    expect("stderrTail" in fault).toBe(false);
    expect(fault.server).toBe("s");
  });
});

/** A second branded error class, standing in for another package's fault. */
class OtherFault extends Error {}
brandFault(OtherFault, "OtherFault");

describe("fault brand", () => {
  it("recognises its own faults through isInstance", () => {
    expect(ProtocolFault.isInstance(protocolFault("timeout", "slow"))).toBe(true);
    expect(ProtocolFault.isInstance(new Error("plain"))).toBe(false);
    expect(ProtocolFault.isInstance(new OtherFault("x"))).toBe(false);
  });

  it("recognises a fault minted by a second copy of the package by its registry symbol", () => {
    class ForeignFault extends Error {}
    Object.defineProperty(ForeignFault.prototype, Symbol.for("indus.fault.ProtocolFault"), { value: true });
    const foreign = new ForeignFault("from elsewhere");
    expect(foreign instanceof ProtocolFault).toBe(false);
    expect(ProtocolFault.isInstance(foreign)).toBe(true);
  });

  it("marks every indus error as an indus fault", () => {
    expect(isIndusFault(protocolFault("timeout", "slow"))).toBe(true);
    expect(isIndusFault(new OtherFault("x"))).toBe(true);
    expect(isIndusFault(new Error("plain"))).toBe(false);
    expect(isIndusFault(null)).toBe(false);
  });
});
