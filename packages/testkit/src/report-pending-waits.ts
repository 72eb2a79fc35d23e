/**
 * Jest setup file (jest.preset.cjs): a test that timed out while a `waitFor`
 * was pending fails with what never happened, not only "Exceeded timeout".
 */
import { abandonPendingWaits } from "./wait-for";

function report(): void {
  const waits = abandonPendingWaits();
  if (waits.length > 0) throw new Error(`still waiting for: ${waits.join("; ")}`);
}

afterEach(report);
afterAll(report);
