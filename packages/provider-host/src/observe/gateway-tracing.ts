/**
 * OpenTelemetry traces of the gateway (the official `@opentelemetry/*`
 * packages, loaded only when an OTLP endpoint is configured): a server span
 * per gateway request, in the caller's trace when it sent a `traceparent`,
 * and a client span per call to a server behind the gateway, whose context
 * that server is sent in `_meta`. Spans leave by OTLP/HTTP, configured by the
 * standard `OTEL_EXPORTER_OTLP_*` variables; tracing is off when they name no
 * endpoint (or `OTEL_SDK_DISABLED=true`, `OTEL_TRACES_EXPORTER=none`).
 */
import type { TraceContext } from "@indus/contract";
import type { Span } from "@opentelemetry/api";
import type { RequestRecord, RequestSpan, UpstreamCall } from "./request-record";

export interface GatewayTracing {
  /** A span for a request arriving in `incoming` (or in a trace of its own). */
  begin(name: string, incoming: TraceContext | undefined, attributes: Readonly<Record<string, string>>): RequestSpan;
  /** Sends the spans still buffered and stops. */
  close(): Promise<void>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The OTLP/HTTP traces URL the environment names, if tracing is on. */
export function tracesEndpoint(env: Env): string | undefined {
  if (env["OTEL_SDK_DISABLED"]?.trim().toLowerCase() === "true") return undefined;
  if (env["OTEL_TRACES_EXPORTER"]?.trim().toLowerCase() === "none") return undefined;
  const traces = env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]?.trim();
  if (traces) return traces;
  const base = env["OTEL_EXPORTER_OTLP_ENDPOINT"]?.trim();
  return base ? `${base.replace(/\/$/, "")}/v1/traces` : undefined;
}

export async function gatewayTracing(
  endpoint: string,
  service: { readonly name: string; readonly version: string },
  env: Env,
): Promise<GatewayTracing> {
  const [api, core, sdk, exporter, resources] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      "service.name": env["OTEL_SERVICE_NAME"]?.trim() || service.name,
      "service.version": service.version,
    }),
    spanProcessors: [new sdk.BatchSpanProcessor(new exporter.OTLPTraceExporter({ url: endpoint }))],
  });
  const tracer = provider.getTracer("@indus/provider-host", service.version);
  const propagator = new core.W3CTraceContextPropagator();
  const carrierGetter = {
    keys: (carrier: Record<string, string>) => Object.keys(carrier),
    get: (carrier: Record<string, string>, key: string) => carrier[key],
  };
  const carrierSetter = {
    set: (carrier: Record<string, string>, key: string, value: string) => (carrier[key] = value),
  };
  const contextOf = (span: Span): TraceContext => {
    const carrier: Record<string, string> = {};
    propagator.inject(api.trace.setSpan(api.ROOT_CONTEXT, span), carrier, carrierSetter);
    return carrier["tracestate"] === undefined
      ? { traceparent: carrier["traceparent"]! }
      : { traceparent: carrier["traceparent"]!, tracestate: carrier["tracestate"] };
  };

  return {
    begin(name, incoming, attributes) {
      const parent =
        incoming === undefined
          ? api.ROOT_CONTEXT
          : propagator.extract(api.ROOT_CONTEXT, { ...incoming }, carrierGetter);
      const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes }, parent);
      const inSpan = api.trace.setSpan(api.ROOT_CONTEXT, span);
      return {
        trace: contextOf(span),
        upstream(call): UpstreamCall {
          const child = tracer.startSpan(`upstream ${call}`, { kind: api.SpanKind.CLIENT }, inSpan);
          return {
            trace: contextOf(child),
            end(failed) {
              if (failed) child.setStatus({ code: api.SpanStatusCode.ERROR });
              child.end();
            },
          };
        },
        end(record: RequestRecord) {
          const outcome = record.outcome ?? "refused";
          span.setAttribute("indus.gateway.outcome", outcome);
          if (record.errorCode !== undefined) span.setAttribute("rpc.jsonrpc.error_code", record.errorCode);
          if (outcome !== "ok" && outcome !== "input-required") span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    async close() {
      await provider.shutdown();
    },
  };
}
