#!/usr/bin/env node
/**
 * A real MCP server over stdio, built the way most TypeScript MCP servers are:
 * the official SDK's McpServer with zod schemas (zod 4 and zod/v3, so both of
 * the SDK's converters run). Its tools exist only to publish the schema shapes
 * zod emits in the wild: nullable types, unions, literals, formats, tuples,
 * records, recursion and shared definitions. scripts/collect-corpus.mjs lists
 * them into test/fixtures/corpus/sdk-zod.json.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { z as z3 } from "zod/v3";

const server = new McpServer({ name: "indus-zod-fixture", version: "1.0.0" });
const ok = async () => ({ content: [{ type: "text", text: "ok" }] });

// zod 4 (the SDK converts with z.toJSONSchema, draft-7, io "input")
server.registerTool(
  "nullable-fields",
  {
    description: "Nullable and optional primitives.",
    inputSchema: {
      name: z.string().nullable(),
      age: z.number().int().nullable().optional(),
      note: z.string().nullish().describe("free text"),
    },
  },
  ok,
);
server.registerTool(
  "unions",
  {
    description: "Plain and discriminated unions.",
    inputSchema: {
      target: z.union([z.string(), z.number()]),
      shape: z.discriminatedUnion("kind", [
        z.object({ kind: z.literal("circle"), r: z.number().positive() }),
        z.object({ kind: z.literal("rect"), w: z.number(), h: z.number() }),
      ]),
    },
  },
  ok,
);
server.registerTool(
  "literals",
  {
    description: "Enums and literals.",
    inputSchema: {
      mode: z.enum(["fast", "slow"]),
      level: z.literal(3),
      flag: z.literal(true),
      choice: z.union([z.literal("a"), z.literal("b")]),
    },
  },
  ok,
);
server.registerTool(
  "formats",
  {
    description: "String formats.",
    inputSchema: {
      email: z.email(),
      url: z.url(),
      id: z.uuid(),
      when: z.iso.datetime(),
      day: z.iso.date().optional(),
    },
  },
  ok,
);
const Category = z.object({
  name: z.string(),
  get children() {
    return z.array(Category).optional();
  },
});
server.registerTool("recursive-tree", { description: "A recursive structure.", inputSchema: { root: Category } }, ok);
const Address = z.object({ street: z.string(), city: z.string() }).meta({ id: "Address" });
server.registerTool(
  "shared-defs",
  {
    description: "A schema with an id lands in $defs and is referenced twice.",
    inputSchema: { home: Address, work: Address.optional() },
  },
  ok,
);
server.registerTool(
  "tuples-records",
  {
    description: "Tuples, a tuple with a rest element, and records.",
    inputSchema: {
      point: z.tuple([z.number(), z.number()]),
      pair: z.tuple([z.string(), z.number()]),
      rest: z.tuple([z.string()], z.number()),
      tags: z.record(z.string(), z.string()),
    },
  },
  ok,
);
server.registerTool(
  "constraints",
  {
    description: "Defaults, descriptions, bounds and patterns.",
    inputSchema: {
      count: z.number().int().min(1).max(10).default(3).describe("how many"),
      slug: z.string().regex(/^[a-z]+$/),
      size: z.number().gt(0).lt(100),
      list: z.array(z.string()).min(1).max(5),
      both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    },
    outputSchema: { total: z.number(), items: z.array(z.string()) },
  },
  ok,
);
server.registerTool(
  "anything",
  {
    description: "Unconstrained values.",
    inputSchema: { anything: z.any(), blob: z.unknown(), maybe: z.string().optional() },
  },
  ok,
);

// zod/v3 (the SDK converts with zod-to-json-schema: type arrays, #/properties refs)
server.registerTool(
  "v3-nullable",
  {
    description: "zod 3 nullable primitives become type arrays.",
    inputSchema: { name: z3.string().nullable(), n: z3.number().nullable(), flag: z3.boolean().optional() },
  },
  ok,
);
server.registerTool(
  "v3-unions",
  {
    description: "zod 3 unions.",
    inputSchema: {
      target: z3.union([z3.string(), z3.number()]),
      shape: z3.discriminatedUnion("kind", [
        z3.object({ kind: z3.literal("circle"), r: z3.number() }),
        z3.object({ kind: z3.literal("rect"), w: z3.number(), h: z3.number() }),
      ]),
      choice: z3.union([z3.literal("a"), z3.literal("b")]),
    },
  },
  ok,
);
const Point = z3.object({ x: z3.number(), y: z3.number() });
server.registerTool(
  "v3-reused",
  {
    description: "zod 3 reuse: the second use is a JSON pointer into the first.",
    inputSchema: { from: Point, to: Point },
  },
  ok,
);
const Node3 = z3.lazy(() => z3.object({ value: z3.number(), next: Node3.optional() }));
server.registerTool(
  "v3-recursive",
  { description: "zod 3 recursion through z.lazy.", inputSchema: { list: Node3 } },
  ok,
);
server.registerTool(
  "v3-misc",
  {
    description: "zod 3 enums, tuples, records, formats and defaults.",
    inputSchema: {
      mode: z3.enum(["a", "b"]),
      pair: z3.tuple([z3.string(), z3.number()]),
      tags: z3.record(z3.number()),
      email: z3.string().email(),
      when: z3.string().datetime(),
      count: z3.number().int().min(0).default(1),
    },
  },
  ok,
);

await server.connect(new StdioServerTransport());
