/**
 * What a server sent that the endpoint dropped or repaired outside its tool
 * listing (a handshake capability, a `_meta`, a resource, a refused result),
 * newest last. Bounded: a server that keeps sending bad data cannot grow it.
 */
const MAX_ISSUES = 20;

export class IssueLog {
  private entries: string[] = [];

  add(method: string, issues: readonly string[]): void {
    for (const issue of issues) {
      const entry = `${method}: ${issue}`;
      if (this.entries.includes(entry)) continue;
      this.entries.push(entry);
      if (this.entries.length > MAX_ISSUES) this.entries.shift();
    }
  }

  list(): readonly string[] {
    return this.entries;
  }
}
