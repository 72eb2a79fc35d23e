/**
 * A read, prompt get or completion of a 2026-07-28 client, when the server
 * behind asks that client something while serving it: the same rounds as a
 * tool call's (see `input-rounds`). The request is answered `input_required`
 * with the questions; the client's retry with the answers lets it go on. A
 * 2026-era server's own `input_required` result is passed through (see
 * `passed-state`), so nothing waits here for it.
 */
import { serverQuestionsOf } from "@indus/contract";
import type { GatewayCallOptions } from "@indus/contract";
import { inputRequired } from "@modelcontextprotocol/server";
import type { ServerContext } from "@modelcontextprotocol/server";
import { RoundTripCall, resumeOrStart } from "../tools/input-rounds";
import type { InputRounds } from "../tools/input-rounds";
import { passedThrough } from "../tools/passed-state";
import { envelopeCapabilities, envelopeLogLevel } from "../tools/tool-call";

/**
 * Runs `work` for `ctx`'s client over as many rounds as its server's
 * questions take; `name` names the request (`prompts/get <name>`, ...).
 */
export async function inRounds<T>(
  rounds: InputRounds,
  ctx: ServerContext,
  name: string,
  work: (options: GatewayCallOptions) => Promise<T>,
): Promise<T | ReturnType<typeof inputRequired>> {
  const { call, inputRound } = resumeOrStart(rounds, ctx, {
    name,
    request: name,
    start: () => new RoundTripCall(name, undefined, envelopeCapabilities(ctx), envelopeLogLevel(ctx)),
  });
  const round = call.run.attach(ctx);
  call.enter(ctx);
  try {
    const signal = call.run.controller.signal;
    const outcome = call.once(() =>
      work(
        inputRound === undefined
          ? { signal, relayTo: call.relayTo, logs: call.logs }
          : { signal, relayTo: call.relayTo, logs: call.logs, inputRound },
      ),
    );
    const end = await call.next(outcome);
    if (end.kind === "input") return inputRequired({ inputRequests: end.requests, requestState: rounds.suspend(call) });
    const result = await outcome;
    const asked = serverQuestionsOf(result);
    return asked === undefined ? result : passedThrough(name, asked);
  } finally {
    call.leave(ctx);
    round.detach();
  }
}
