/**
 * Endpoints made through `make` are closed after the file's tests, whatever
 * happened in them.
 */
import { createServerEndpoint, type McpServerEndpoint } from "@indus/endpoint";

export function trackEndpoints(): (...args: Parameters<typeof createServerEndpoint>) => McpServerEndpoint {
  const opened: McpServerEndpoint[] = [];
  afterAll(() => Promise.all(opened.map((endpoint) => endpoint.close())));
  return (...args) => {
    const endpoint = createServerEndpoint(...args);
    opened.push(endpoint);
    return endpoint;
  };
}
