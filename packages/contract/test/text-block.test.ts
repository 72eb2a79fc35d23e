import { isPlainTextBlock, ownKeyCount } from "@indus/contract";

it("takes a text block of a type and a string text only, as parsed from a peer's line", () => {
  expect(isPlainTextBlock(JSON.parse('{"type":"text","text":"hi"}'))).toBe(true);
  for (const line of [
    '{"type":"text","text":"hi","annotations":{"audience":["user"]}}',
    '{"type":"text","text":"hi","__proto__":{"x":1}}',
    '{"type":"text","text":5}',
    '{"type":"image","data":"aGk=","mimeType":"image/png"}',
    '["text","hi"]',
    "null",
  ])
    expect(isPlainTextBlock(JSON.parse(line))).toBe(false);
});

it("counts own keys only", () => {
  expect(ownKeyCount(JSON.parse('{"a":1,"__proto__":{"b":2}}'))).toBe(2);
  expect(ownKeyCount(Object.create({ inherited: 1 }) as object)).toBe(0);
  expect(ownKeyCount({})).toBe(0);
});
