/**
 * A 2026-07-28 call's questions travel in `input_required` rounds. A question
 * its server withdraws before the round goes out never goes out; one
 * withdrawn after is dropped from the answers the call waits for; and a round
 * that loses every question to a withdrawal keeps waiting for the run rather
 * than ending the call early.
 */
import type { JsonObject } from "@indus/contract";
import type { ServerContext } from "@modelcontextprotocol/server";
import { RoundTripCall } from "../src/tools/input-rounds";

const FORM = { elicitation: { form: {} } };

function question(message: string): JsonObject {
  return { message, requestedSchema: { type: "object", properties: {} } };
}

function messagesOf(requests: Record<string, unknown>): string[] {
  return Object.values(requests).map((request) => ((request as { params: { message: string } }).params ?? {}).message);
}

test("a question withdrawn before its round goes out never goes out", async () => {
  const call = new RoundTripCall("ask", {}, FORM, undefined);
  const withdraw = new AbortController();
  let finish!: () => void;
  const outcome = new Promise<void>((resolve) => (finish = resolve));
  const first = call.relayTo.elicit!("s", question("withdrawn"), withdraw.signal);
  const kept = call.relayTo.elicit!("s", question("kept"));
  withdraw.abort("changed my mind");
  await expect(first).rejects.toThrow(/withdrawn/);
  const round = await call.next(outcome);
  expect(round.kind).toBe("input");
  expect(messagesOf(round.kind === "input" ? round.requests : {})).toEqual(["kept"]);
  call.answer(
    Object.fromEntries(
      Object.keys(round.kind === "input" ? round.requests : {}).map((k) => [k, { action: "decline" }]),
    ),
  );
  await expect(kept).resolves.toEqual({ action: "decline" });
  finish();
  await expect(call.next(outcome)).resolves.toEqual({ kind: "done" });
});

test("a round that loses its only question keeps waiting for the run's next one", async () => {
  const call = new RoundTripCall("ask", {}, FORM, undefined);
  const withdraw = new AbortController();
  let finish!: () => void;
  const outcome = new Promise<void>((resolve) => (finish = resolve));
  const next = call.next(outcome);
  void call.relayTo.elicit!("s", question("gone"), withdraw.signal).catch(() => undefined);
  withdraw.abort();
  setTimeout(() => void call.relayTo.elicit!("s", question("later")).catch(() => undefined), 20);
  const round = await next;
  expect(round.kind).toBe("input");
  expect(messagesOf(round.kind === "input" ? round.requests : {})).toEqual(["later"]);
  finish();
});

test("a question withdrawn after its round went out is no longer waited for", async () => {
  const call = new RoundTripCall("ask", {}, FORM, undefined);
  const withdraw = new AbortController();
  const outcome = new Promise<void>(() => undefined);
  const asked = call.relayTo.elicit!("s", question("sent"), withdraw.signal);
  const round = await call.next(outcome);
  expect(round.kind).toBe("input");
  withdraw.abort();
  await expect(asked).rejects.toThrow(/withdrawn/);
  // The client's late answer to it goes nowhere, and nothing is left unanswered.
  expect(() => call.answer({})).not.toThrow();
});

test("a log message that arrives between rounds goes out with the next round, in order", () => {
  const call = new RoundTripCall("ask", {}, FORM, "info");
  const sent: { round: string; message: unknown }[] = [];
  const round = (name: string) =>
    ({
      mcpReq: {
        notify: (notification: { params: unknown }) => {
          sent.push({ round: name, message: (notification.params as { data: unknown }).data });
          return Promise.resolve();
        },
      },
    }) as unknown as ServerContext;
  const first = round("first");
  const second = round("second");
  call.enter(first);
  call.logs.deliver({ level: "info", data: "during the first" });
  call.logs.deliver({ level: "debug", data: "below the level" });
  call.leave(first);
  call.logs.deliver({ level: "warning", data: "between rounds" });
  call.logs.deliver({ level: "error", data: "still between" });
  call.enter(second);
  expect(sent).toEqual([
    { round: "first", message: "during the first" },
    { round: "second", message: "between rounds" },
    { round: "second", message: "still between" },
  ]);
});

test("a call whose request asked for no level takes no log messages", () => {
  const call = new RoundTripCall("ask", {}, FORM, undefined);
  expect(call.logs.level).toBeUndefined();
});
