/**
 * @indus/fleet/testing: test doubles for code that drives a fleet. Build a
 * fleet over `FakeEndpoint`s with `fakeEndpoints({...})` as its
 * `createEndpoint`; no process is spawned and no socket is opened.
 */
import type { ServerConfig } from "@indus/contract";
import type { CreateEndpoint } from "../default-endpoint";
import { FakeEndpoint, type FakeScript } from "./fake-endpoint";

export { FakeEndpoint, textResult } from "./fake-endpoint";
export type { FakeScript, FakeTool, RelayCall, RelayMember } from "./fake-endpoint";

/** A `createEndpoint` that mints `FakeEndpoint`s from per-server scripts, and keeps every one it made. */
export interface FakeEndpoints {
  readonly createEndpoint: CreateEndpoint;
  /** Every endpoint minted so far, oldest first (a reconnect mints a new one). */
  readonly made: readonly FakeEndpoint[];
  /** The latest endpoint minted for `server`. */
  latest(server: string): FakeEndpoint | undefined;
}

export function fakeEndpoints(scripts: Readonly<Record<string, FakeScript>> = {}): FakeEndpoints {
  const made: FakeEndpoint[] = [];
  return {
    createEndpoint: (config: ServerConfig) => {
      const endpoint = new FakeEndpoint(config, scripts[config.id] ?? {});
      made.push(endpoint);
      return endpoint;
    },
    made,
    latest: (server) => made.filter((endpoint) => endpoint.config.id === server).at(-1),
  };
}

/** A minimal stdio config for a fake server (never spawned). */
export function fakeServer(id: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  return { transport: "stdio", id, command: "fake", args: [], env: {}, ...extra } as ServerConfig;
}
