/**
 * The SDK server, with each request's end reported to the gateway's records:
 * a result, a tool's error result, an input request or a JSON-RPC error.
 * Through the SDK's own hook for wrapping registered handlers; a request the
 * gateway does not observe costs one map lookup. The same hook lets the
 * handshake go out at once while the box is still filling: requests that
 * read the box wait for it, and the instructions and the extensions the box
 * offers are read at each handshake.
 */
import { Server } from "@modelcontextprotocol/server";
import type {
  BaseContext,
  Implementation,
  JSONRPCRequest,
  MessageExtraInfo,
  Result,
  ServerCapabilities,
  ServerContext,
  ServerOptions,
} from "@modelcontextprotocol/server";
import { recordOf } from "./exchanges";

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The requests answered while the box still fills: the handshake and ping.
 * Every other request reads the box or reaches its servers (tools, prompts,
 * resources, completion, skills, subscriptions, tasks, log levels, and
 * whatever an extension adds) and waits for it: a list taken before the
 * mounts connect would be empty without a word.
 */
const ANSWERED_WHILE_FILLING = new Set(["initialize", "server/discover", "ping"]);

const HANDSHAKES = new Set(["initialize", "server/discover"]);

/** How an instance answers while its box fills. */
export interface FillingBox {
  /** Settles once the box is as full as it will be at start (a gateway's mounts connected, or its boot wait passed). */
  readonly boxReady?: PromiseLike<unknown>;
  /** The instructions as they stand when a client's handshake arrives. */
  readonly instructions?: () => string | undefined;
  /**
   * The capabilities a client's handshake is answered with: the declared
   * ones, with what the handshake's era adds (`initialize` opens the 2025
   * era, `server/discover` the 2026-07-28 one; the Tasks extension is the
   * latter's only).
   */
  readonly capabilities?: (declared: ServerCapabilities, era: "legacy" | "modern") => ServerCapabilities;
}

export class ObservedServer extends Server {
  private filling: FillingBox = {};
  /** Set once the box has filled: from then on a request goes straight to its handler, with no wait to pass. */
  private filled = false;

  constructor(info: Implementation, options: ServerOptions, filling: FillingBox = {}) {
    super(info, options);
    this.filling = filling;
    if (filling.boxReady === undefined) this.filled = true;
    else Promise.resolve(filling.boxReady).then(() => (this.filled = true), ignore);
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = observed(super._wrapHandler(method, handler));
    if (!ANSWERED_WHILE_FILLING.has(method)) {
      return (request, ctx) => (this.filled ? wrapped(request, ctx) : this.whenFilled(wrapped, request, ctx));
    }
    if (!HANDSHAKES.has(method)) return wrapped;
    const era = method === "initialize" ? "legacy" : "modern";
    return async (request, ctx) => this.asItStands(await wrapped(request, ctx), era);
  }

  /**
   * The SDK's context, its `http` not copied when the transport adds nothing
   * to it. Given a caller (`ctx.http`, the gateway's `authInfo`), the SDK
   * copies it as `{ ...ctx.http, req, closeSSE, closeStandaloneSSE }`: on
   * Node 20 V8 builds a spread followed by keys on a slow path, about 5 µs a
   * request (measured), which every 2025-era call through the gateway paid
   * and the plain host did not. The host's sessions give none of those
   * three, so the caller's own `http` object is the same to a handler.
   */
  protected override buildContext(ctx: BaseContext, transportInfo?: MessageExtraInfo): ServerContext {
    const { http } = ctx;
    if (http === undefined || addsHttpInfo(transportInfo)) return super.buildContext(ctx, transportInfo);
    // `ctx` is the SDK's own, made for this request and read by nothing after this call.
    // (Set to undefined, not deleted: a deleted key turns the object into a slower one to copy.)
    (ctx as { http?: BaseContext["http"] | undefined }).http = undefined;
    const built = super.buildContext(ctx, transportInfo);
    built.http = http;
    return built;
  }

  /** A handshake's answer with the instructions and capabilities as they stand now. */
  private asItStands(answer: Result, era: "legacy" | "modern"): Result {
    const { instructions, capabilities } = this.filling;
    const words = instructions?.();
    const declared = answer["capabilities"] as ServerCapabilities | undefined;
    return {
      ...answer,
      ...(words && { instructions: words }),
      ...(declared !== undefined && capabilities !== undefined && { capabilities: capabilities(declared, era) }),
    };
  }
  private async whenFilled(handler: Handler, request: JSONRPCRequest, ctx: ServerContext): Promise<Result> {
    await this.filling.boxReady;
    return handler(request, ctx);
  }
}

/** Whether a transport gives what the SDK adds to `ctx.http` (the Web request, SSE stream controls). */
function addsHttpInfo(info: MessageExtraInfo | undefined): boolean {
  return (
    info !== undefined &&
    (info.request !== undefined || info.closeSSEStream !== undefined || info.closeStandaloneSSEStream !== undefined)
  );
}

/** A box that failed to fill fails each request that waits for it (`whenFilled`), not the process. */
function ignore(): void {}

/** `handler`, its ends reported to the gateway's records when the request is observed. */
function observed(handler: Handler): Handler {
  return (request, ctx) => {
    const seen = recordOf(ctx);
    if (seen === undefined) return handler(request, ctx);
    const { record, exchange } = seen;
    return handler(request, ctx).then(
      (result) => {
        const answer = result as { isError?: unknown; resultType?: unknown };
        const outcome =
          answer.isError === true ? "tool-error" : answer.resultType === "input_required" ? "input-required" : "ok";
        exchange.finish(record, outcome);
        return result;
      },
      (error: unknown) => {
        const code = (error as { code?: unknown } | null)?.code;
        exchange.finish(record, "error", typeof code === "number" ? code : undefined);
        throw error;
      },
    );
  };
}
