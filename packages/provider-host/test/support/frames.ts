/**
 * Random and mutated JSON-RPC frames for fuzzing, as raw text. A mix of
 * well-formed requests (known and unknown methods, good and bad params),
 * notifications, stray responses, batches, byte-level mutations of valid
 * frames, and arbitrary JSON or text.
 */
import fc from "fast-check";

const METHODS = [
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "prompts/list",
  "prompts/get",
  "logging/setLevel",
  "completion/complete",
  "sampling/createMessage",
  "tasks/get",
];
const NOTIFICATIONS = [
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
];
/** Tools safe to hit at random: none runs long or grows the box. */
const TOOLS = ["echo", "add", "image", "mixed", "fail", "explode", "stats", "nope", ""];

const id = fc.oneof(
  { weight: 6, arbitrary: fc.integer() },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1.5, {}, []) },
);
const version = fc.oneof(
  { weight: 9, arbitrary: fc.constant("2.0") },
  { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
);
const smallJson = fc.jsonValue({ maxDepth: 3 });
const smallObject = fc.dictionary(fc.string({ maxLength: 8 }), smallJson, { maxKeys: 4 });

const toolCallParams = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 10 }), fc.integer()),
    arguments: fc.oneof(
      smallObject,
      fc.record({ message: fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.constant(null)) }),
      fc.record({ a: fc.oneof(fc.double(), fc.string()), b: fc.oneof(fc.integer(), fc.boolean()) }),
      smallJson,
    ),
    _meta: fc.record({ progressToken: fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), smallJson) }),
  },
  { requiredKeys: [] },
);

const params = fc.oneof(
  toolCallParams,
  fc.record(
    { uri: fc.oneof(fc.constantFrom("demo://greeting", "demo://items/1", "x://y"), fc.string()) },
    { requiredKeys: [] },
  ),
  fc.record({ name: fc.oneof(fc.constant("greet"), fc.string()), arguments: smallObject }, { requiredKeys: [] }),
  fc.record({ level: fc.oneof(fc.constantFrom("debug", "info", "warning", "emergency"), fc.string()) }),
  fc.record({ requestId: id, reason: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }),
  fc.record({ progressToken: id, progress: fc.double(), total: fc.double() }, { requiredKeys: [] }),
  smallObject,
  smallJson,
);

const request = fc.record(
  { jsonrpc: version, id, method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 16 })), params },
  { requiredKeys: ["jsonrpc", "method"] },
);
const notification = fc.record(
  {
    jsonrpc: fc.constant("2.0"),
    method: fc.oneof(fc.constantFrom(...NOTIFICATIONS), fc.string({ maxLength: 16 })),
    params,
  },
  { requiredKeys: ["jsonrpc", "method"] },
);
const response = fc.oneof(
  fc.record({ jsonrpc: fc.constant("2.0"), id, result: smallJson }),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id,
    error: fc.record({ code: fc.integer(), message: fc.string({ maxLength: 20 }) }),
  }),
);
const initialize = fc.record({
  jsonrpc: fc.constant("2.0"),
  id,
  method: fc.constant("initialize"),
  params: fc.record({
    protocolVersion: fc.oneof(fc.constantFrom("2025-06-18", "2025-11-25", "2024-11-05"), fc.string({ maxLength: 10 })),
    capabilities: smallObject,
    clientInfo: fc.record({ name: fc.string({ maxLength: 10 }), version: fc.string({ maxLength: 5 }) }),
  }),
});
const message = fc.oneof(
  { weight: 1, arbitrary: initialize },
  { weight: 5, arbitrary: request },
  { weight: 2, arbitrary: notification },
  { weight: 1, arbitrary: response },
);

const wellFormedText = fc.oneof(
  { weight: 6, arbitrary: message.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.array(message, { minLength: 0, maxLength: 5 }).map((value) => JSON.stringify(value)) },
);

/** Byte-level damage to a well-formed frame: truncation, insertion, replacement, splicing. */
const mutated = fc
  .tuple(
    wellFormedText,
    fc.nat(),
    fc.nat(),
    fc.constantFrom("{", "}", "[", "]", '"', ",", ":", "\\", "\u0000", "é", "𝄞", "null", "1e999"),
  )
  .chain(([text, first, second, token]) => {
    const at = text.length === 0 ? 0 : first % text.length;
    const to = text.length === 0 ? 0 : second % text.length;
    return fc.constantFrom(
      text.slice(0, at),
      text.slice(0, at) + token + text.slice(at),
      text.slice(0, at) + token + text.slice(at + 1),
      text.slice(0, Math.min(at, to)) + text.slice(Math.max(at, to)),
      text + text,
      text.replaceAll('"2.0"', "2.0"),
    );
  });

const arbitraryText = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? "null"),
  fc.string({ maxLength: 64 }),
  fc.constantFrom("", "null", "[]", "{}", "[[]]", '{"jsonrpc":"2.0"}', "\ufeff{}", "1".repeat(400)),
);

export const frameText = fc.oneof(
  { weight: 5, arbitrary: wellFormedText },
  { weight: 4, arbitrary: mutated },
  { weight: 1, arbitrary: arbitraryText },
);

export function sampleFrames(count: number, seed: number): string[] {
  return fc.sample(frameText, { numRuns: count, seed });
}
