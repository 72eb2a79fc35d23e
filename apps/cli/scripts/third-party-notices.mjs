// Writes dist/THIRD-PARTY-NOTICES.md: the licence of every third-party package
// esbuild inlined into the bundle (read from the metafile tsup writes), so the
// published tarball carries the notices those licences require. The metafile
// itself is deleted afterwards; it is a build artefact, not something to ship.
import fs from "node:fs";
import path from "node:path";

const LICENSE_FILE = /^(licen[sc]e|copying|notice)(\.(md|txt|markdown))?$/i;

/** The package folder (containing package.json with a name) that holds `file`. */
function packageRootOf(file) {
  let dir = path.dirname(path.resolve(file));
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest)) {
      const pkg = JSON.parse(fs.readFileSync(manifest, "utf8"));
      if (pkg.name && pkg.version) return { dir, pkg };
    }
    dir = path.dirname(dir);
  }
  return undefined;
}

function licenceText(dir) {
  const files = fs
    .readdirSync(dir)
    .filter((f) => LICENSE_FILE.test(f))
    .sort();
  return files.map((f) => fs.readFileSync(path.join(dir, f), "utf8").trim()).join("\n\n");
}

export function writeThirdPartyNotices(outDir) {
  const metafiles = fs.readdirSync(outDir).filter((f) => /^metafile-.*\.json$/.test(f));
  const packages = new Map();
  for (const name of metafiles) {
    const meta = JSON.parse(fs.readFileSync(path.join(outDir, name), "utf8"));
    for (const input of Object.keys(meta.inputs)) {
      if (!input.includes("node_modules")) continue;
      const found = packageRootOf(input);
      if (!found || found.pkg.name.startsWith("@indus/")) continue;
      packages.set(`${found.pkg.name}@${found.pkg.version}`, found);
    }
    fs.rmSync(path.join(outDir, name));
  }
  const sections = [...packages.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, { dir, pkg }]) => {
      const license = typeof pkg.license === "string" ? pkg.license : (pkg.license?.type ?? "see below");
      const text = licenceText(dir) || `(no licence file in the package; its package.json says ${license})`;
      return `## ${id}\n\nLicense: ${license}\n\n\`\`\`text\n${text}\n\`\`\`\n`;
    });
  const header =
    "# Third-party notices\n\n`indusr` bundles the following packages. Their licences are reproduced below.\n\n";
  fs.writeFileSync(path.join(outDir, "THIRD-PARTY-NOTICES.md"), header + sections.join("\n"));
  return packages.size;
}
