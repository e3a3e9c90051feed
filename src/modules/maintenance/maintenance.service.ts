import type { Tx } from "../../db/transaction.js";
import { NotFoundError } from "../../http/errors.js";
import type { MaintenanceTask, NewTask, TaskStatus } from "./maintenance.constants.js";
import type { MaintenanceRepository } from "./maintenance.repository.js";

/** Maintenance tasks and recurring schedules (staff-side §3, §4; DESIGN.md decisions 12 and 22). */
export class MaintenanceService {
  constructor(private readonly tasks: MaintenanceRepository) {}

  /** Creates tasks (a report's recommendations, an accepted quote, a schedule's dates), inside the caller's transaction when given. */
  createTasks(tasks: NewTask[], tx?: Tx): Promise<MaintenanceTask[]> {
    return this.tasks.insertTasks(tasks, tx);
  }

  findTask(id: number, tx?: Tx): Promise<MaintenanceTask | null> {
    return this.tasks.findTask(id, tx);
  }

  /** Moves a task to any status (staff-side §4); completed records completedAt. */
  async setTaskStatus(id: number, status: TaskStatus, tx?: Tx): Promise<MaintenanceTask> {
    const task = await this.tasks.setStatus(id, status, tx);
    if (!task) throw new NotFoundError("Maintenance task not found");
    return task;
  }
}
