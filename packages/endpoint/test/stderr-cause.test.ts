import { describeStderr, explainingLine } from "../src/stdio/stderr-tail";

it("names the line that explains a crash, not the chatter before it", () => {
  const sdkWarnings = [
    'Tool name validation warning for "a.b":',
    "  - Tool name contains invalid characters",
    "  - Allowed characters are: A-Z, a-z, 0-9, underscore (_), dash (-), and dot (.)",
  ];
  expect(explainingLine([...sdkWarnings, "about to crash hard"])).toBe("about to crash hard");
  expect(explainingLine(["starting", "TypeError: x is not a function", "    at main (/srv/index.js:3:1)"])).toBe(
    "TypeError: x is not a function",
  );
  expect(explainingLine(["listening", "could not open database: EACCES", "bye"])).toBe(
    "could not open database: EACCES",
  );
  expect(explainingLine(["\u001b[31mError: boom\u001b[0m\u0007"])).toBe("Error: boom");
  expect(describeStderr([])).toBe("");
  expect(describeStderr(["x".repeat(1000)])).toHaveLength(" Stderr says: ".length + 240);
});
