/**
 * Who the bridge says it is in `initialize`. Servers log and sometimes gate on
 * `clientInfo`, so it carries the real package name and version.
 */
import type { ClientIdentity } from "@indus/contract";
import { version } from "../package.json";

export const CLIENT_NAME = "indus-protocol-bridge";
export const CLIENT_VERSION: string = version;

export type { ClientIdentity } from "@indus/contract";

export const DEFAULT_CLIENT_INFO: ClientIdentity = { name: CLIENT_NAME, version: CLIENT_VERSION };
