/**
 * The session checklist's vocabulary. A leaf: the session stores a checklist
 * and the `todo_read` / `todo_set` tools edit it, and both import this file,
 * so the session never imports a tool.
 */
export const CHECKLIST_STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;
export type ChecklistStatus = (typeof CHECKLIST_STATUSES)[number];
export const CHECKLIST_PRIORITIES = ["high", "medium", "low"] as const;
export type ChecklistPriority = (typeof CHECKLIST_PRIORITIES)[number];

export interface ChecklistItem {
  readonly id: string;
  readonly content: string;
  readonly status: ChecklistStatus;
  readonly priority: ChecklistPriority;
}
