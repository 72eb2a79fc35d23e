import { parseAccessPolicy } from "@indus/contract";

describe("parseAccessPolicy", () => {
  it("takes single names where lists are allowed, and rate limits", () => {
    const parsed = parseAccessPolicy({
      rules: [{ match: { clientId: "memory-agent" }, allow: { servers: "memory" }, rateLimit: { perMinute: 600 } }],
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        rules: [
          { match: { clientId: ["memory-agent"] }, allow: { servers: ["memory"] }, rateLimit: { perMinute: 600 } },
        ],
      },
    });
  });

  it("names where a policy is wrong", () => {
    const parsed = parseAccessPolicy({ rules: [{ match: { client: "x" }, allow: { tools: [] } }] });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(["rules.0.match", "rules.0.allow.tools"]),
    );
  });
});
