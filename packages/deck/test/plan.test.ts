import fs from "node:fs";
import path from "node:path";
import { planFilePath, planSlug, readPlan, writePlan } from "@indus/deck";
import { PLANS_DIRNAME } from "@indus/deck/internal";
import { tempDir } from "./helpers";

describe("plan files", () => {
  it("slugs the first non-empty line, capped at 48 chars, with a fallback", () => {
    expect(planSlug("\n\n# Refactor the Auth Module!\nsteps")).toBe("refactor-the-auth-module");
    expect(planSlug("Café déjà vu")).toBe("cafe-deja-vu");
    expect(planSlug("x".repeat(100))).toHaveLength(48);
    expect(planSlug(`${"a".repeat(47)} b`)).toBe("a".repeat(47));
    expect(planSlug("   \n  \n")).toBe("plan");
    expect(planSlug("!!!")).toBe("plan");
  });

  it("places plans under <sessionDir>/plans", () => {
    expect(planFilePath("/s", "my-plan")).toBe(path.join("/s", PLANS_DIRNAME, "my-plan.md"));
  });

  it("writes with a base-36 time prefix so repeats never collide, and reads back", async () => {
    const dir = tempDir();
    const files = await Promise.all([
      writePlan(dir, "# Same plan"),
      writePlan(dir, "# Same plan"),
      writePlan(dir, "# Same plan"),
    ]);
    expect(new Set(files).size).toBe(3);
    for (const file of files) {
      expect(path.dirname(file)).toBe(path.join(dir, "plans"));
      const [stamp] = path.basename(file).split("-");
      expect(stamp).toMatch(/^[0-9a-z]+$/);
      expect(Math.abs(parseInt(stamp as string, 36) - Date.now())).toBeLessThan(60_000);
      expect(path.basename(file)).toMatch(/-same-plan\.md$/);
      expect(await readPlan(file)).toBe("# Same plan\n");
    }
    expect(fs.readdirSync(path.join(dir, "plans"))).toHaveLength(3);
    expect(await readPlan(path.join(dir, "plans", "missing.md"))).toBeUndefined();
  });
});
