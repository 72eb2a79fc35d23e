/** Working-memory scratch notes for the `memory` card. */
export interface MemoryStore {
  read(): Promise<string>;
  replace(text: string): Promise<void>;
  append(text: string): Promise<void>;
}
