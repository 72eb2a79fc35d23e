/** The seven app cards, in catalog order (load-bearing). */
import type { CapabilityCard } from "../vocabulary";
import { bgProcessCard } from "./bg-process";
import { memoryCard } from "./memory";
import { enterPlanModeCard, exitPlanModeCard } from "./plan";
import { saasCard } from "./saas";
import { taskCard } from "./task";
import { todoCard } from "./todo";

export function appNovelCards(): CapabilityCard[] {
  return [todoCard(), bgProcessCard(), taskCard(), saasCard(), memoryCard(), enterPlanModeCard(), exitPlanModeCard()];
}
