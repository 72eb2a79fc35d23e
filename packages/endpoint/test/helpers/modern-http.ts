/** The v2 fixture server (fixtures/modern-server.mjs) over Streamable HTTP in a child process. */
import { startFixtureHttp, type FixtureHttpServer } from "@indus/testkit";

export type ModernHttpServer = FixtureHttpServer;

export function startModernHttp(args: readonly string[] = []): Promise<ModernHttpServer> {
  return startFixtureHttp("modern-server.mjs", args);
}
