/**
 * One `auto` run as a user's process makes it (open, then close), and spawn
 * counting by the fixtures' own pid logs: the era tests' common steps.
 */
import { existsSync, readFileSync } from "node:fs";
import type { ServerConfig } from "@indus/contract";
import { createServerEndpoint, type EndpointOptions } from "@indus/endpoint";

/** One run: open, then close; resolves with the era, or `fault <kind>`. */
export async function runOnce(config: ServerConfig, options: EndpointOptions): Promise<string> {
  const endpoint = createServerEndpoint(config, undefined, options);
  try {
    await endpoint.open();
    return endpoint.era ?? "none";
  } catch (error) {
    return `fault ${(error as { kind?: string }).kind ?? "?"}`;
  } finally {
    await endpoint.close();
  }
}

/** How many processes appended their pid to `file`. */
export const spawnCount = (file: string): number =>
  existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").length : 0;
