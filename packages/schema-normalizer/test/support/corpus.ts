/** Loads the committed corpus and the synthetic schemas as one list of cases. */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SYNTHETIC } from "../fixtures/synthetic";

export interface CorpusCase {
  readonly label: string;
  readonly schema: Record<string, unknown>;
  readonly dialect: "07" | "2020";
  readonly kind: "input" | "output";
}

interface CorpusFile {
  readonly server: string;
  readonly version: string;
  readonly tools: ReadonlyArray<{
    name: string;
    inputSchema: Record<string, unknown>;
    outputSchema?: Record<string, unknown>;
  }>;
}

export const CORPUS_DIR = join(__dirname, "..", "fixtures", "corpus");

export function corpusFiles(): Array<{ id: string; file: CorpusFile }> {
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => ({
      id: name.replace(/\.json$/, ""),
      file: JSON.parse(readFileSync(join(CORPUS_DIR, name), "utf8")) as CorpusFile,
    }));
}

function dialectOf(schema: Record<string, unknown>): "07" | "2020" {
  return typeof schema.$schema === "string" && schema.$schema.includes("2020-12") ? "2020" : "07";
}

export function corpusCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const { id, file } of corpusFiles()) {
    for (const tool of file.tools) {
      cases.push({
        label: `${id}/${tool.name}`,
        schema: tool.inputSchema,
        dialect: dialectOf(tool.inputSchema),
        kind: "input",
      });
      if (tool.outputSchema) {
        cases.push({
          label: `${id}/${tool.name}#output`,
          schema: tool.outputSchema,
          dialect: dialectOf(tool.outputSchema),
          kind: "output",
        });
      }
    }
  }
  return cases;
}

export function syntheticCases(): CorpusCase[] {
  return SYNTHETIC.map((entry) => ({
    label: `synthetic/${entry.name}`,
    schema: entry.schema,
    dialect: entry.dialect,
    kind: "input",
  }));
}
