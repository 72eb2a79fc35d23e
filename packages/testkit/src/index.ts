/**
 * @indus/testkit: the test servers and helpers several packages' tests share
 * (stdio fixture servers, the reference servers over stdio and HTTP, HTTP
 * fault servers, process-group probes). Private: a workspace package so a
 * test that uses it declares it, and turbo re-runs that test's checks when
 * a helper changes.
 */
export {
  FIXTURES,
  changing,
  everythingStdio,
  fixture,
  hostile,
  npmServerEntry,
  scripted,
  shifting,
  tiny,
} from "./servers";
export * from "./processes";
export { waitFor, type WaitOptions } from "./wait-for";
export * from "./deadlines";
export * from "./date-clock";
export * from "./everything-http";
export * from "./ports";
export * from "./http-servers";
export * from "./oauth-fixture";
export * from "./relay";
export * from "./readme-example";
export * from "./extension-examples";
export * from "./machine-tools";
export * from "./nginx-front";
