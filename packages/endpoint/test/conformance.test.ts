/**
 * The official MCP conformance suite's CI client scenarios (initialize,
 * tools_call, sse-retry, elicitation defaults (SEP-1034), and six OAuth ones, client credentials included) against the current source, via conformance/run.mjs.
 * Needs the npm registry once (npx fetches Node 22 and the suite, then caches
 * them). INDUS_SKIP_CONFORMANCE=1 skips it offline.
 */
import { spawn } from "node:child_process";
import path from "node:path";

const skip = process.env.INDUS_SKIP_CONFORMANCE === "1";

(skip ? it.skip : it)(
  "passes the conformance suite's initialize, tools_call, sse-retry, elicitation-defaults and auth client scenarios",
  async () => {
    const script = path.join(__dirname, "..", "conformance", "run.mjs");
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("close", (exit) => resolve({ code: exit, output }));
    });
    expect(output).toMatch(/PASS {2}initialize/);
    expect(output).toMatch(/PASS {2}tools_call/);
    expect(output).toMatch(/PASS {2}sse-retry/);
    expect(output).toMatch(/PASS {2}elicitation-sep1034-client-defaults/);
    for (const scenario of [
      "metadata-default",
      "basic-cimd",
      "scope-step-up",
      "pre-registration",
      "client-credentials-basic",
      "client-credentials-jwt",
    ]) {
      expect(output).toMatch(new RegExp(`PASS {2}auth/${scenario}`));
    }
    expect(code).toBe(0);
  },
  300_000,
);

(skip ? it.skip : it)(
  "passes the 2026-07-28 client scenarios of conformance 0.2.0-alpha.12 (request _meta, standard and Mcp-Param headers) and DPoP",
  async () => {
    const script = path.join(__dirname, "..", "conformance", "run.mjs");
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [script], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, INDUS_CONFORMANCE_SUITE: "@modelcontextprotocol/conformance@0.2.0-alpha.12" },
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("close", (exit) => resolve({ code: exit, output }));
    });
    for (const scenario of [
      "initialize",
      "tools_call",
      "request-metadata",
      "http-standard-headers",
      "http-custom-headers",
      "http-invalid-tool-headers",
      "auth/dpop",
      "auth/dpop-nonce",
    ]) {
      expect(output).toMatch(new RegExp(`PASS {2}${scenario}`));
    }
    expect(code).toBe(0);
  },
  300_000,
);
