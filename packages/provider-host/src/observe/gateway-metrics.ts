/**
 * Prometheus metrics for the gateway (`prom-client`, loaded only when
 * metrics are on): requests, errors and latency by method and server,
 * rate-limited requests, open sessions and upstream health. Label values
 * come from callers, so they are bounded: an unknown method, or a server
 * beyond the first few dozen seen, is counted as `other`. Process figures
 * are read at scrape time only: prom-client's default collectors watch every
 * garbage collection and sample the event loop's delay all the time, work
 * the gateway paid for on every request whether anyone scraped or not.
 */
import type { ServerResponse } from "node:http";
import type * as PromClient from "prom-client";
import { afterAnswers } from "./after-answers";
import type { RequestObserver, RequestRecord } from "./request-record";
import { RequestTallies, latencyHistogram } from "./request-tallies";

/** One mounted server's health, as the gateway's owner reports it. */
export interface UpstreamHealth {
  readonly server: string;
  readonly up: boolean;
}

export interface MetricsSources {
  /** Open 2025-era sessions. */
  sessions(): number;
  /** The mounted servers and whether each is up. */
  upstreams(): readonly UpstreamHealth[];
}

export interface GatewayMetrics extends RequestObserver {
  /** Answers a scrape with the Prometheus text format. */
  serve(response: ServerResponse): Promise<void>;
}

const METHODS = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "subscriptions/listen",
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
]);
const MAX_SERVER_LABELS = 64;
const NOT_OK = new Set(["error", "tool-error", "unauthorized", "forbidden", "rate-limited", "refused"]);

export async function gatewayMetrics(sources: MetricsSources): Promise<GatewayMetrics> {
  // A CommonJS module: however it is imported, its exports sit on `default`.
  const prom = (await import("prom-client")).default;
  const registry = new prom.Registry();
  processMetrics(prom, registry);
  const tallies = new RequestTallies(NOT_OK);
  requestCounters(prom, registry, tallies);
  const latency = latencyHistogram(
    "indus_gateway_request_duration_seconds",
    "Time from a request's arrival to its answer",
    tallies,
  );
  // Any object the registry can `get()` serves; prom-client's types name only its own classes.
  registry.registerMetric(latency as unknown as PromClient.Metric);
  const limited = new prom.Counter({
    name: "indus_gateway_rate_limited_total",
    help: "Requests refused for being over the caller's budget",
    registers: [registry],
  });
  new prom.Gauge({
    name: "indus_gateway_sessions_open",
    help: "Open 2025-era sessions",
    registers: [registry],
    collect() {
      this.set(sources.sessions());
    },
  });
  new prom.Gauge({
    name: "indus_gateway_upstream_up",
    help: "1 when a mounted server is connected and ready, else 0",
    labelNames: ["server"],
    registers: [registry],
    collect() {
      this.reset();
      for (const upstream of sources.upstreams()) this.set({ server: upstream.server }, upstream.up ? 1 : 0);
    },
  });
  const servers = new Set<string>();
  const serverLabel = (server: string | undefined) => {
    if (server === undefined) return "";
    if (servers.has(server)) return server;
    if (servers.size >= MAX_SERVER_LABELS) return "other";
    servers.add(server);
    return server;
  };
  // Counted right after the answers went out; a scrape counts what waits first.
  const finished = afterAnswers<RequestRecord>((records) => {
    for (const record of records) {
      const method = METHODS.has(record.method) ? record.method : "other";
      const outcome = record.outcome ?? "refused";
      const seconds = (record.latencyMs ?? 0) / 1000;
      tallies.count(method, serverLabel(record.server), outcome, seconds);
      if (outcome === "rate-limited") limited.inc();
    }
  });

  return {
    finished: (record) => finished.add(record),
    async serve(response) {
      finished.drain();
      const text = await registry.metrics();
      response.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
      response.end(text);
    },
  };
}

type Prom = typeof PromClient;

/** Requests and errors by method and server, read from `tallies` when scraped. */
function requestCounters(prom: Prom, registry: PromClient.Registry, tallies: RequestTallies): void {
  new prom.Counter({
    name: "indus_gateway_requests_total",
    help: "JSON-RPC requests the gateway answered, by method, server and outcome",
    labelNames: ["method", "server", "outcome"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, outcomes } of tallies.values())
        for (const [outcome, count] of outcomes) this.inc({ ...labels, outcome }, count);
    },
  });
  new prom.Counter({
    name: "indus_gateway_errors_total",
    help: "Requests that did not end with a result (errors, tool errors and refusals)",
    labelNames: ["method", "server"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, errors } of tallies.values()) if (errors > 0) this.inc(labels, errors);
    },
  });
}

/** The process's CPU time and memory, read when scraped (nothing runs between scrapes). */
function processMetrics(prom: Prom, registry: PromClient.Registry): void {
  new prom.Gauge({
    name: "indus_gateway_process_cpu_seconds",
    help: "User and system CPU time the gateway's process has spent, in seconds",
    registers: [registry],
    collect() {
      const { user, system } = process.cpuUsage();
      this.set((user + system) / 1e6);
    },
  });
  new prom.Gauge({
    name: "indus_gateway_process_resident_memory_bytes",
    help: "Resident memory of the gateway's process, in bytes",
    registers: [registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new prom.Gauge({
    name: "indus_gateway_heap_used_bytes",
    help: "JavaScript heap in use, in bytes",
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
}
