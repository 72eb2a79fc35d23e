/**
 * The gateway for teams, in front of the MCP endpoint: the OAuth gate (who
 * is calling), the access policy (the box as that caller may see it), the
 * caller's request budget, and the records every request leaves (audit log,
 * metrics, traces). Built only when an option asks for one of them, with
 * each optional library (`jose`, `prom-client`, OpenTelemetry) loaded only
 * for the option that needs it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseAccessPolicy, protocolFault } from "@indus/contract";
import type { AccessPolicy, AccessPolicyInput, Caller, ToolBox } from "@indus/contract";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { compileAccessPolicy } from "../access/access-grants";
import type { AccessGrants } from "../access/access-grants";
import { callerBox } from "../access/caller-box";
import { PUBLISHED_NAME_OWNERS } from "../access/item-owners";
import { bearerGate, isRefusal } from "../auth/bearer-gate";
import type { BearerGate } from "../auth/bearer-gate";
import { auditLog } from "../observe/audit-log";
import { bindExchange, recordsById } from "../observe/exchanges";
import { gatewayMetrics } from "../observe/gateway-metrics";
import type { GatewayMetrics } from "../observe/gateway-metrics";
import { gatewayTracing, tracesEndpoint } from "../observe/gateway-tracing";
import type { RequestObserver, RequestOutcome, RequestRecord } from "../observe/request-record";
import { CallerBudgets } from "../rate/caller-budgets";
import type { GatewayOptions } from "./gateway-options";
import { refusedRecord, requestRecords } from "./request-records";
import type { RecordContext } from "./request-records";

export interface GatewayLayer {
  /** Answers the layer's own routes (protected resource metadata, `/metrics`); true when it did. */
  route(pathname: string, request: IncomingMessage, response: ServerResponse): boolean;
  /**
   * Checks a request's credentials: true once `request.auth` names the caller, false after a refusal;
   * at once for a header that passed before, a promise while a token is verified.
   */
  admit(request: IncomingMessage, response: ServerResponse): boolean | Promise<boolean>;
  /** Takes a POST from the caller's budget and records its requests; false after a refusal (429). */
  observe(request: IncomingMessage, response: ServerResponse, body: unknown): boolean;
  /** The box as the caller `auth` names may see and use it. */
  boxFor(auth: AuthInfo | undefined): ToolBox;
  /** Who owns a request, for binding a 2025-era session to the caller that opened it. */
  ownerOf(request: IncomingMessage): string | undefined;
  close(): Promise<void>;
}

export interface LayerContext {
  readonly box: ToolBox;
  /** The MCP endpoint as served (the default resource URL). */
  readonly served: URL;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly service: { readonly name: string; readonly version: string };
  /** Open 2025-era sessions. */
  readonly sessions: () => number;
}

/** Who a request's credentials name, the key callers are told apart by, and what their records start from. */
interface Identity {
  readonly caller: Caller;
  readonly key: string;
  readonly records: RecordContext;
}

/**
 * The caller an admitted request's `AuthInfo` names, on a private symbol of
 * that per-request object (a `WeakMap` entry per request was garbage-collector
 * work).
 */
const IDENTITY = Symbol("indus.gateway.identity");

type AdmittedAuth = AuthInfo & { [IDENTITY]?: Identity };
type AuthedRequest = IncomingMessage & { auth?: AdmittedAuth };

const NO_CALLER: Caller = { groups: [], scopes: [] };

/** What the layer's steps share once built from the options. */
interface LayerParts {
  readonly options: GatewayOptions;
  readonly gate: BearerGate | undefined;
  readonly grants: AccessGrants | undefined;
  readonly metrics: GatewayMetrics | undefined;
  readonly tracing: RecordContext["tracing"];
  /** Callers by the verified token's `AuthInfo` (one object per token while it is remembered). */
  readonly identities: WeakMap<AuthInfo, Identity>;
  /** The identity of requests without a token (no OAuth gate). */
  readonly nobody: Identity;
  readonly recordsFor: (caller: Caller) => RecordContext;
  readonly finish: ReturnType<typeof finisher>;
  readonly budgets: CallerBudgets;
}

export async function gatewayLayer(options: GatewayOptions, context: LayerContext): Promise<GatewayLayer> {
  const endpoint = options.tracing === false ? undefined : tracesEndpoint(context.env);
  const [metrics, tracing] = await Promise.all([
    options.metrics === true
      ? gatewayMetrics({ sessions: context.sessions, upstreams: options.upstreams ?? (() => []) })
      : undefined,
    endpoint === undefined ? undefined : gatewayTracing(endpoint, context.service, context.env),
  ]);
  const observers: RequestObserver[] = [
    ...(options.auditLog === undefined ? [] : [auditLog(options.auditLog)]),
    ...(metrics === undefined ? [] : [metrics]),
  ];
  const owners = options.owners ?? PUBLISHED_NAME_OWNERS;
  const recordsFor = (caller: Caller): RecordContext => ({
    caller,
    owners,
    tracing,
    keepsArgs: options.auditLog !== undefined,
  });
  const parts: LayerParts = {
    options,
    gate:
      options.oauth === undefined
        ? undefined
        : bearerGate(options.oauth, new URL(options.oauth.resource ?? context.served.href)),
    grants: options.access === undefined ? undefined : compileAccessPolicy(policyOf(options.access), options.owners),
    metrics,
    tracing,
    recordsFor,
    identities: new WeakMap<AuthInfo, Identity>(),
    nobody: { caller: NO_CALLER, key: "", records: recordsFor(NO_CALLER) },
    finish: finisher(observers),
    budgets: new CallerBudgets(),
  };
  const { grants } = parts;
  return {
    route: (pathname, request, response) => routeOwn(pathname, request, response, parts),
    admit: (request, response) => admit(parts, request, response),
    observe: (request, response, body) => observe(parts, request, response, body),
    boxFor(auth) {
      if (grants === undefined) return context.box;
      return callerBox(context.box, grantOf(grants, identityOf(parts, auth).caller));
    },
    ownerOf: (request) => identityOf(parts, (request as AuthedRequest).auth).key,
    async close() {
      await Promise.all([...observers.map((observer) => observer.close?.()), tracing?.close()]);
    },
  };
}

function identityOf({ nobody }: LayerParts, auth: AdmittedAuth | undefined): Identity {
  return auth?.[IDENTITY] ?? nobody;
}

/** Checks a request's credentials: true once `request.auth` names the caller, false after a refusal. */
function admit(parts: LayerParts, request: AuthedRequest, response: ServerResponse): boolean | Promise<boolean> {
  const { gate, nobody } = parts;
  if (gate === undefined) {
    request.auth = { token: "", clientId: "", scopes: [], [IDENTITY]: nobody };
    return true;
  }
  const known = gate.passed(request.headers.authorization, request.socket);
  if (known !== undefined) return letIn(parts, request, known);
  return gate.check(request.headers.authorization).then((verdict) => {
    if (!isRefusal(verdict)) return letIn(parts, request, verdict);
    const record = refusedRecord(request, nobody.caller, parts.tracing);
    parts.finish(record, verdict.status === 403 ? "forbidden" : "unauthorized", undefined, verdict.status);
    response.writeHead(verdict.status, { ...verdict.headers, "Content-Type": "application/json" });
    response.end(verdict.body);
    return false;
  });
}

/** Names the caller of a request whose token passed: `request.auth`, the caller's identity on it. */
function letIn({ identities, recordsFor }: LayerParts, request: AuthedRequest, verdict: AuthInfo): true {
  let identity = identities.get(verdict);
  if (identity === undefined) {
    identity = identityFromToken(verdict, recordsFor);
    identities.set(verdict, identity);
  }
  // A fresh object per request: it carries this exchange's records (see `exchanges`). Not `{ ...verdict, key }`:
  // V8 builds a spread with more keys, or one given a key later, on a slow path (~20x `Object.assign`, measured).
  request.auth = Object.assign({ [IDENTITY]: identity }, verdict);
  return true;
}

/** Takes a POST from the caller's budget and records its requests; false after a refusal (429). */
function observe(parts: LayerParts, request: IncomingMessage, response: ServerResponse, body: unknown): boolean {
  const { grants, options, budgets, finish } = parts;
  const auth = (request as AuthedRequest).auth;
  const identity = identityOf(parts, auth);
  const recordContext = identity.records;
  const limit = grants?.grantFor(identity.caller).rateLimit ?? options.rateLimit;
  if (limit !== undefined) {
    const verdict = budgets.take(identity.key, limit);
    if (verdict.kind === "limited") {
      for (const record of requestRecords(body, request, recordContext)) finish(record, "rate-limited", undefined, 429);
      sendRateLimited(response, body, limit.perMinute, verdict.retryAfterSeconds);
      return false;
    }
  }
  const records = requestRecords(body, request, recordContext);
  if (records.length === 0 || auth === undefined) return true;
  bindExchange(auth, { record: recordsById(records), finish });
  // `close` comes once per response: `on` spares the `once` wrapper.
  response.on("close", () => {
    const cut = !response.writableFinished;
    for (const record of records) {
      if (record.outcome !== undefined) continue;
      const status = response.statusCode;
      // A listen stream ends when its client hangs up: that is its normal end.
      const ended = status < 400 && (!cut || record.method === "subscriptions/listen");
      finish(record, ended ? "ok" : "refused", undefined, status);
    }
  });
  return true;
}

/** Ends a record once: its outcome, latency and span, then the observers. */
function finisher(observers: readonly RequestObserver[]) {
  return (record: RequestRecord, outcome: RequestOutcome, errorCode?: number, status?: number) => {
    if (record.outcome !== undefined) return;
    record.outcome = outcome;
    if (errorCode !== undefined) record.errorCode = errorCode;
    if (status !== undefined) record.status = status;
    record.latencyMs = Date.now() - record.time;
    record.span?.end(record);
    for (const observer of observers) observer.finished(record);
  };
}

function policyOf(input: AccessPolicyInput): AccessPolicy {
  const parsed = parseAccessPolicy(input);
  if (parsed.ok) return parsed.value;
  const issues = parsed.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  throw protocolFault("protocol", `the access policy is not valid: ${issues}`);
}

function grantOf(grants: AccessGrants, caller: Caller) {
  return grants.grantFor(caller);
}

function identityFromToken(auth: AuthInfo, recordsFor: (caller: Caller) => RecordContext): Identity {
  const extra = auth.extra as { subject?: unknown; groups?: unknown } | undefined;
  const subject = typeof extra?.subject === "string" ? extra.subject : undefined;
  const groups = Array.isArray(extra?.groups) ? (extra.groups as string[]) : [];
  const caller: Caller = {
    ...(auth.clientId !== "" && { clientId: auth.clientId }),
    ...(subject !== undefined && { subject }),
    groups,
    scopes: auth.scopes,
  };
  const key = JSON.stringify([caller.clientId ?? null, caller.subject ?? null]);
  return { caller, key, records: recordsFor(caller) };
}

function routeOwn(
  pathname: string,
  request: IncomingMessage,
  response: ServerResponse,
  { gate, metrics }: LayerParts,
): boolean {
  if (gate?.serveMetadata(pathname, request, response) === true) return true;
  if (metrics !== undefined && pathname === "/metrics" && request.method === "GET") {
    void metrics.serve(response).catch(() => response.destroy());
    return true;
  }
  return false;
}

/** HTTP 429 with `Retry-After`, its body the JSON-RPC error each request gets. */
function sendRateLimited(response: ServerResponse, body: unknown, perMinute: number, retryAfter: number): void {
  const id = Array.isArray(body) ? null : ((body as { id?: unknown } | null)?.id ?? null);
  const error = {
    code: -32000,
    message: `Too Many Requests: over the budget of ${perMinute} requests a minute; retry in ${retryAfter} s`,
    data: { retryAfterSeconds: retryAfter },
  };
  response.writeHead(429, { "Content-Type": "application/json", "Retry-After": String(retryAfter) });
  response.end(JSON.stringify({ jsonrpc: "2.0", id, error }));
}
