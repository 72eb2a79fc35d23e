// Shared with fleet's tests through @indus/testkit.
export { startHttpFault, startStreamableServer } from "@indus/testkit";
export type {
  HttpFaultMode,
  HttpFaultServer,
  RecordedRequest,
  StreamableTestServer,
  TestHttpServer,
} from "@indus/testkit";
