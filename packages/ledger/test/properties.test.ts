import fc from "fast-check";
import {
  BridgeLedger,
  asBridgeKey,
  bridgeContentKey,
  reduceLedger,
  type BridgeEntry,
  type BridgeKey,
  type LedgerCapability,
  type LedgerSnapshot,
} from "@indus/ledger";

/**
 * Any interleaving of enroll / retire / withdraw (including branching off an
 * older value) must agree with a naive reference model: a mutable Map copied
 * at every step, fed the same events in order.
 */

interface Tool extends LedgerCapability {
  readonly name: string;
  readonly parameters: { readonly type: "object"; readonly v: number };
  readonly rev: number;
}

const SERVERS = ["alpha", "beta", "gamma"] as const;
const RAW_KEYS = [0, 1, 2, 3, 4].map((i) => asBridgeKey(`bk_raw${i}`));
const AT = "2026-03-04T05:06:07.000Z";

type Command =
  | {
      readonly t: "enroll";
      readonly server: number;
      readonly tool: number;
      readonly schema: number;
      readonly rev: number;
      readonly raw: number | null;
    }
  | {
      readonly t: "retire";
      readonly server: number;
      readonly tool: number;
      readonly schema: number;
      readonly raw: number | null;
    }
  | { readonly t: "withdraw"; readonly server: number }
  | { readonly t: "branch"; readonly back: number }
  | { readonly t: "peek" };

const server = fc.nat({ max: SERVERS.length - 1 });
const tool = fc.nat({ max: 3 });
const schema = fc.nat({ max: 1 });
const raw = fc.option(fc.nat({ max: RAW_KEYS.length - 1 }), { nil: null, freq: 2 });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ t: fc.constant("enroll" as const), server, tool, schema, rev: fc.nat({ max: 1000 }), raw }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("retire" as const), server, tool, schema, raw }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("withdraw" as const), server }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("branch" as const), back: fc.nat({ max: 20 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: "peek" as const }) },
);

const capOf = (c: { server: number; tool: number; schema: number }, rev = 0): Tool => ({
  name: `${SERVERS[c.server]}__t${c.tool}`,
  parameters: { type: "object", v: c.schema },
  rev,
});
const keyOf = (c: { server: number; tool: number; schema: number; raw: number | null }): BridgeKey =>
  c.raw === null
    ? bridgeContentKey(SERVERS[c.server] as string, `t${c.tool}`, { type: "object", v: c.schema })
    : (RAW_KEYS[c.raw] as BridgeKey);

/** The reference: a plain Map, copied per step, events applied one by one. */
interface Model {
  readonly live: Map<BridgeKey, { capability: Tool; server: string }>;
  readonly log: BridgeEntry<Tool>[];
  readonly nextSeq: number;
}

function modelStep(model: Model, cmd: Command): Model {
  const live = new Map(model.live);
  const log = [...model.log];
  let seq = model.nextSeq;
  const retire = (key: BridgeKey, srv: string) => {
    log.push({ op: "retire", key, server: srv, seq: seq++, at: AT });
    live.delete(key);
  };
  if (cmd.t === "enroll") {
    const key = keyOf(cmd);
    const capability = capOf(cmd, cmd.rev);
    const srv = SERVERS[cmd.server] as string;
    log.push({ op: "enroll", key, server: srv, capability, seq: seq++, at: AT });
    live.set(key, { capability, server: srv });
  } else if (cmd.t === "retire") {
    retire(keyOf(cmd), SERVERS[cmd.server] as string);
  } else if (cmd.t === "withdraw") {
    const srv = SERVERS[cmd.server] as string;
    for (const [key, held] of [...live]) if (held.server === srv) retire(key, srv);
  }
  return { live, log, nextSeq: seq };
}

function ledgerStep(ledger: BridgeLedger<Tool>, cmd: Command): BridgeLedger<Tool> {
  if (cmd.t === "enroll") {
    const req =
      cmd.raw === null
        ? { capability: capOf(cmd, cmd.rev), server: SERVERS[cmd.server] as string }
        : { capability: capOf(cmd, cmd.rev), server: SERVERS[cmd.server] as string, key: keyOf(cmd) };
    return ledger.enroll(req, AT);
  }
  if (cmd.t === "retire") return ledger.retire(keyOf(cmd), SERVERS[cmd.server] as string, AT);
  if (cmd.t === "withdraw") return ledger.withdrawServer(SERVERS[cmd.server] as string, AT);
  return ledger;
}

/** Everything observable about a snapshot, as plain data. */
function viewOf(snapshot: LedgerSnapshot<Tool>) {
  const universe = [...RAW_KEYS];
  for (let s = 0; s < SERVERS.length; s++)
    for (let t = 0; t < 4; t++)
      for (let v = 0; v < 2; v++) universe.push(keyOf({ server: s, tool: t, schema: v, raw: null }));
  return {
    live: [...snapshot.live].map(([k, c]) => [k, c.name, c.rev]),
    owners: [...snapshot.owners],
    byServer: [...snapshot.byServer],
    highWater: snapshot.highWater,
    size: snapshot.live.size,
    lookups: universe.map((k) => [snapshot.live.has(k), snapshot.live.get(k)?.rev, snapshot.owners.get(k)]),
  };
}

function modelView(model: Model) {
  const byServer = new Map<string, number>();
  for (const held of model.live.values()) byServer.set(held.server, (byServer.get(held.server) ?? 0) + 1);
  const universe = [...RAW_KEYS];
  for (let s = 0; s < SERVERS.length; s++)
    for (let t = 0; t < 4; t++)
      for (let v = 0; v < 2; v++) universe.push(keyOf({ server: s, tool: t, schema: v, raw: null }));
  return {
    live: [...model.live].map(([k, h]) => [k, h.capability.name, h.capability.rev]),
    owners: [...model.live].map(([k, h]) => [k, h.server]),
    byServer: [...byServer],
    highWater: model.nextSeq - 1,
    size: model.live.size,
    lookups: universe.map((k) => [model.live.has(k), model.live.get(k)?.capability.rev, model.live.get(k)?.server]),
  };
}

/** Persist `rev` too, so a round trip gives back equal capabilities. */
const describeTool = (c: Tool) => ({ name: c.name, parameters: c.parameters, rev: c.rev });

/** A deterministic shuffle (so a failing case replays). */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let x = seed | 1;
  for (let i = out.length - 1; i > 0; i--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = Math.abs(x) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("the ledger against a naive reference model", () => {
  it("agrees at every step, and every earlier value still shows its own state at the end", () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 80 }), (commands) => {
        const history: { ledger: BridgeLedger<Tool>; model: Model }[] = [
          { ledger: BridgeLedger.empty<Tool>(), model: { live: new Map(), log: [], nextSeq: 1 } },
        ];
        let current = history[0]!;
        for (const cmd of commands) {
          if (cmd.t === "branch") {
            current = history[Math.max(0, history.length - 1 - cmd.back)]!;
            continue;
          }
          if (cmd.t === "peek") {
            // Read (and so cache) before later transitions happen.
            expect(viewOf(current.ledger.snapshot)).toEqual(modelView(current.model));
            continue;
          }
          current = { ledger: ledgerStep(current.ledger, cmd), model: modelStep(current.model, cmd) };
          history.push(current);
        }
        for (const { ledger, model } of history) {
          expect(viewOf(ledger.snapshot)).toEqual(modelView(model));
          expect(ledger.log).toEqual(model.log);
          expect(ledger.nextSeq).toBe(model.nextSeq);
          expect(ledger.liveCapabilities()).toEqual([...model.live.values()].map((h) => h.capability));
          for (const srv of SERVERS) {
            expect(ledger.liveCapabilitiesForServer(srv)).toEqual(
              [...model.live.values()].filter((h) => h.server === srv).map((h) => h.capability),
            );
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it("reduceLedger is independent of input order; fromLog and JSON Lines replay identically", () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), fc.integer(), (commands, seed) => {
        let ledger = BridgeLedger.empty<Tool>();
        let model: Model = { live: new Map(), log: [], nextSeq: 1 };
        for (const cmd of commands) {
          ledger = ledgerStep(ledger, cmd);
          model = modelStep(model, cmd);
        }
        const expected = modelView(model);
        const shuffled = shuffle(ledger.log, seed);
        const before = [...shuffled];
        expect(viewOf(reduceLedger(shuffled))).toEqual(expected);
        expect(shuffled).toEqual(before); // the fold sorted a copy
        expect(viewOf(reduceLedger(ledger.log))).toEqual(expected);

        const replayed = BridgeLedger.fromLog(shuffled);
        expect(viewOf(replayed.snapshot)).toEqual(expected);
        expect(replayed.log).toEqual(ledger.log);
        expect(replayed.nextSeq).toBe(ledger.nextSeq);

        const loaded = BridgeLedger.fromJsonLines(ledger.toJsonLines(describeTool), (d) => d as unknown as Tool);
        expect(loaded.error).toBeUndefined();
        expect(viewOf(loaded.ledger.snapshot)).toEqual(expected);
        expect(loaded.ledger.nextSeq).toBe(ledger.nextSeq);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it("a log cut at any byte keeps exactly the whole lines before the cut", () => {
    fc.assert(
      fc.property(
        fc.array(command, { minLength: 1, maxLength: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (commands, where) => {
          let ledger = BridgeLedger.empty<Tool>();
          for (const cmd of commands) ledger = ledgerStep(ledger, cmd);
          const text = ledger.toJsonLines(describeTool);
          const cut = Math.floor(where * text.length);
          const loaded = BridgeLedger.fromJsonLines(text.slice(0, cut), (d) => d as unknown as Tool);
          const whole = text.slice(0, cut).split("\n").length - 1;
          const lastComplete = text.slice(0, cut).endsWith("}") || text.slice(0, cut).endsWith("}\n");
          if (loaded.error) {
            expect(loaded.error.kind).toBe("truncated");
            expect(loaded.error.line).toBe(whole + 1);
            expect(loaded.entries).toEqual(ledger.log.slice(0, whole));
          } else {
            expect(lastComplete || cut === 0).toBe(true);
          }
          expect(loaded.ledger.log).toEqual(loaded.entries);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});
