/**
 * An elicitation's schema as form fields, the checks on typed answers, the
 * terminal form driven by scripted answers, and `--yes` defaults.
 */
import type { JsonObject } from "@indus/contract";
import { makeStyle } from "../../src/agent/render";
import { answerField, defaultsOnly, formFields, type FormField } from "../../src/agent/host/form-fields";
import { askForm, askSampling, askUrl, type TerminalPrompter } from "../../src/agent/host/terminal-form";

/** The schema server-everything's `trigger-elicitation-request` sends (trimmed descriptions). */
const EVERYTHING_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    name: { title: "String", type: "string", description: "Your full, legal name" },
    check: { title: "Boolean", type: "boolean" },
    firstLine: { title: "String with default", type: "string", default: "It was a dark and stormy night." },
    email: { title: "Email", type: "string", format: "email" },
    homepage: { type: "string", format: "uri", title: "Homepage" },
    birthdate: { title: "Birthdate", type: "string", format: "date" },
    integer: { title: "Integer", type: "integer", minimum: 1, maximum: 100, default: 42 },
    number: { title: "Number", type: "number", minimum: 0, maximum: 1000, default: 3.14 },
    friend: { type: "string", title: "Friend", enum: ["Monica", "Rachel", "Joey"], default: "Monica" },
    instruments: {
      type: "array",
      title: "Instruments",
      minItems: 1,
      maxItems: 2,
      items: { type: "string", enum: ["Guitar", "Piano", "Violin"] },
      default: ["Guitar"],
    },
    hero: {
      type: "string",
      title: "Hero",
      oneOf: [
        { const: "hero-1", title: "Superman" },
        { const: "hero-2", title: "Green Lantern" },
      ],
      default: "hero-1",
    },
    fish: {
      type: "array",
      title: "Fish",
      items: {
        anyOf: [
          { const: "fish-1", title: "Tuna" },
          { const: "fish-2", title: "Salmon" },
        ],
      },
      default: ["fish-1"],
    },
    pet: { type: "string", title: "Pet", enum: ["pet-1", "pet-2"], enumNames: ["Cats", "Dogs"], default: "pet-1" },
  },
  required: ["name"],
};

const form = formFields(EVERYTHING_SCHEMA);
const field = (name: string): FormField => form.fields.find((f) => f.name === name)!;

describe("schema to fields", () => {
  it("maps every MCP form property to one field kind, in the server's order", () => {
    expect(form.unsupported).toEqual([]);
    expect(form.fields.map((f) => [f.name, f.kind])).toEqual([
      ["name", "text"],
      ["check", "boolean"],
      ["firstLine", "text"],
      ["email", "text"],
      ["homepage", "text"],
      ["birthdate", "text"],
      ["integer", "number"],
      ["number", "number"],
      ["friend", "choice"],
      ["instruments", "multi"],
      ["hero", "choice"],
      ["fish", "multi"],
      ["pet", "choice"],
    ]);
    expect(field("name")).toMatchObject({ required: true, title: "String", description: "Your full, legal name" });
    expect(field("check").required).toBe(false);
    expect(field("integer")).toMatchObject({ integer: true, minimum: 1, maximum: 100, default: 42 });
    expect(field("hero")).toMatchObject({
      options: [
        { value: "hero-1", title: "Superman" },
        { value: "hero-2", title: "Green Lantern" },
      ],
    });
    expect(field("pet")).toMatchObject({
      options: [
        { value: "pet-1", title: "Cats" },
        { value: "pet-2", title: "Dogs" },
      ],
    });
    expect(field("fish")).toMatchObject({ default: ["fish-1"], options: [{ title: "Tuna" }, { title: "Salmon" }] });
  });

  it("reports properties it cannot render, with whether they were required", () => {
    const odd = formFields({
      type: "object",
      properties: { blob: { type: "object" }, when: { type: "string", format: "hostname" }, ok: { type: "string" } },
      required: ["blob"],
    });
    expect(odd.fields.map((f) => f.name)).toEqual(["ok"]);
    expect(odd.unsupported).toEqual([
      { name: "blob", required: true, reason: 'type "object" is not one MCP forms allow' },
      { name: "when", required: false, reason: 'string format "hostname" is not one MCP forms allow' },
    ]);
  });
});

describe("checking answers", () => {
  const refuse = (name: string, typed: string) => {
    const answer = answerField(field(name), typed);
    return answer.ok ? undefined : answer.error;
  };
  const accept = (name: string, typed: string) => {
    const answer = answerField(field(name), typed);
    if (!answer.ok) throw new Error(`${name}: ${answer.error}`);
    return answer.value;
  };

  it("requires a required field, takes defaults on Enter, leaves empty optional fields out", () => {
    expect(refuse("name", "  ")).toBe("required");
    expect(accept("name", " Ada Lovelace ")).toBe("Ada Lovelace");
    expect(accept("firstLine", "")).toBe("It was a dark and stormy night.");
    expect(accept("email", "")).toBeUndefined();
    expect(accept("instruments", "")).toEqual(["Guitar"]);
  });

  it("checks string formats", () => {
    expect(refuse("email", "ada@")).toBe("expected an email address, like name@example.com");
    expect(accept("email", "ada@example.com")).toBe("ada@example.com");
    expect(refuse("homepage", "example.com")).toBe("expected a URL with a scheme, like https://example.com");
    expect(accept("homepage", "https://ada.example")).toBe("https://ada.example");
    expect(refuse("birthdate", "1815-13-10")).toBe("expected a date as YYYY-MM-DD");
    expect(refuse("birthdate", "10/12/1815")).toBe("expected a date as YYYY-MM-DD");
    expect(accept("birthdate", "1815-12-10")).toBe("1815-12-10");
  });

  it("checks numbers, integers and their bounds", () => {
    expect(refuse("integer", "abc")).toBe("expected a whole number");
    expect(refuse("integer", "4.5")).toBe("expected a whole number");
    expect(refuse("integer", "0")).toBe("must be at least 1");
    expect(refuse("integer", "101")).toBe("must be at most 100");
    expect(accept("integer", "7")).toBe(7);
    expect(refuse("number", "1e9")).toBe("must be at most 1000");
    expect(refuse("number", "12abc")).toBe("expected a number");
    expect(accept("number", "2.5")).toBe(2.5);
  });

  it("reads booleans as y/n", () => {
    expect(accept("check", "y")).toBe(true);
    expect(accept("check", "No")).toBe(false);
    expect(refuse("check", "maybe")).toBe("answer y or n");
  });

  it("picks choices by number, value or title", () => {
    expect(accept("friend", "2")).toBe("Rachel");
    expect(accept("friend", "joey")).toBe("Joey");
    expect(refuse("friend", "Ross")).toBe('"Ross" is not one of the choices');
    expect(accept("hero", "green lantern")).toBe("hero-2");
    expect(accept("hero", "hero-1")).toBe("hero-1");
    expect(accept("pet", "Dogs")).toBe("pet-2");
    expect(refuse("friend", "4")).toBe('"4" is not one of the choices');
  });

  it("picks several choices and checks how many", () => {
    expect(accept("instruments", "1, piano")).toEqual(["Guitar", "Piano"]);
    expect(accept("instruments", "1,1")).toEqual(["Guitar"]);
    expect(refuse("instruments", "1,2,3")).toBe("pick at most 2");
    expect(refuse("instruments", "drums")).toBe('"drums" is not one of the choices');
    expect(accept("fish", "Salmon,1")).toEqual(["fish-2", "fish-1"]);
  });
});

describe("--yes with nobody to ask", () => {
  it("sends every default only when each required field has one", () => {
    expect(defaultsOnly(form)).toBeUndefined();
    const withDefaults = formFields({
      type: "object",
      properties: {
        confirm: { type: "boolean", default: false },
        size: { type: "integer", default: 3 },
        note: { type: "string" },
      },
      required: ["confirm", "size"],
    });
    expect(defaultsOnly(withDefaults)).toEqual({ confirm: false, size: 3 });
    expect(defaultsOnly(formFields({ type: "object", properties: {} }))).toEqual({});
  });
});

/** A terminal that answers from a script and keeps what was printed and asked. */
function scripted(answers: (string | undefined)[]): TerminalPrompter & { shown: string[] } {
  const shown: string[] = [];
  return {
    shown,
    style: makeStyle(false),
    width: 100,
    print: (line) => shown.push(line),
    ask: (question) => {
      shown.push(question);
      if (answers.length === 0) throw new Error(`no scripted answer for: ${question}\n${shown.join("\n")}`);
      return Promise.resolve(answers.shift());
    },
  };
}

describe("the terminal form", () => {
  const small = formFields({
    type: "object",
    properties: {
      name: { type: "string", title: "Name", description: "Who you are" },
      age: { type: "integer", minimum: 0, default: 30 },
      color: { type: "string", enum: ["red", "blue"] },
    },
    required: ["name"],
  });

  it("re-asks until an answer passes, shows defaults and required marks, then accepts", async () => {
    const io = scripted(["", "", "Ada", "-1", "", "3", "blue", "a"]);
    const answer = await askForm("srv", "Tell me about you", small, io);
    expect(answer).toEqual({ action: "accept", content: { name: "Ada", age: 30, color: "blue" } });
    const screen = io.shown.join("\n");
    expect(screen).toContain("◆ srv asks for input");
    expect(screen).toContain("Name* (name) — Who you are");
    expect(screen).toContain("✗ name: required");
    expect(screen).toContain("? age (whole number ≥ 0) [30] › ");
    expect(screen).toContain("✗ age: must be at least 0");
    expect(screen).toContain("1) red");
    expect(screen).toContain('✗ color: "3" is not one of the choices');
    expect(screen).toContain("send to srv? [a]ccept · [e]dit · [d]ecline · [c]ancel");
  });

  it("edits with the earlier answers as defaults, declines up front, cancels on Ctrl-C", async () => {
    const edited = await askForm("srv", "m", small, scripted(["y", "Ada", "5", "", "e", "", "6", "", "a"]));
    expect(edited).toEqual({ action: "accept", content: { name: "Ada", age: 6 } });
    expect(await askForm("srv", "m", small, scripted(["n"]))).toEqual({ action: "decline" });
    expect(await askForm("srv", "m", small, scripted(["y", "Ada", undefined]))).toEqual({ action: "cancel" });
    expect(await askForm("srv", "m", small, scripted(["y", "Ada", "", "", "d"]))).toEqual({ action: "decline" });
  });

  it("offers only decline or cancel when a required field cannot be shown", async () => {
    const io = scripted(["d"]);
    const answer = await askForm(
      "srv",
      "m",
      formFields({ type: "object", properties: { x: { type: "object" } }, required: ["x"] }),
      io,
    );
    expect(answer).toEqual({ action: "decline" });
    expect(io.shown.join("\n")).toContain("required, so this form cannot be sent");
  });

  it("shows a link and its host, and opens it only on yes", async () => {
    const opened: string[] = [];
    const open = (url: string) => {
      opened.push(url);
      return Promise.resolve(false);
    };
    const io = scripted(["y"]);
    expect(await askUrl("srv", { message: "Sign in", url: "https://auth.example/x?y=1" }, io, open)).toEqual({
      action: "accept",
      content: {},
    });
    expect(io.shown.join("\n")).toContain("(it goes to auth.example)");
    expect(io.shown.join("\n")).toContain("open it in a browser: https://auth.example/x?y=1");
    expect(await askUrl("srv", { message: "Sign in", url: "https://auth.example/" }, scripted([""]), open)).toEqual({
      action: "decline",
    });
    expect(opened).toEqual(["https://auth.example/x?y=1"]);
  });

  it("asks to approve sampling; Enter denies", async () => {
    expect(await askSampling("srv", ["user: hi"], 50, scripted([""]))).toBe("deny");
    expect(await askSampling("srv", ["user: hi"], 50, scripted(["a"]))).toBe("always");
    const io = scripted(["y"]);
    expect(await askSampling("srv", ["system: be brief", "user: hi"], 50, io)).toBe("once");
    expect(io.shown.join("\n")).toContain("srv asks the model for a completion (sampling, up to 50 tokens)");
  });
});
