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
  Implementation,
  JSONRPCRequest,
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
   * The capabilities as they stand when a client's handshake arrives: the
   * declared ones, with what the box offers now (a mounted server's Tasks
   * extension, known only once its mount connected).
   */
  readonly capabilities?: (declared: ServerCapabilities) => ServerCapabilities;
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
    return async (request, ctx) => this.asItStands(await wrapped(request, ctx));
  }

  /** A handshake's answer with the instructions and capabilities as they stand now. */
  private asItStands(answer: Result): Result {
    const { instructions, capabilities } = this.filling;
    const words = instructions?.();
    const declared = answer["capabilities"] as ServerCapabilities | undefined;
    return {
      ...answer,
      ...(words && { instructions: words }),
      ...(declared !== undefined && capabilities !== undefined && { capabilities: capabilities(declared) }),
    };
  }
  private async whenFilled(handler: Handler, request: JSONRPCRequest, ctx: ServerContext): Promise<Result> {
    await this.filling.boxReady;
    return handler(request, ctx);
  }
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
