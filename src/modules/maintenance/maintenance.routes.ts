import type { RequestHandler, Router } from "express";
import { sendCsv, wantsCsv } from "../../http/csv.js";
import { NotFoundError } from "../../http/errors.js";
import { requireStaffApi } from "../../http/guards.js";
import { inspectorScopeOf } from "../../http/roles.js";
import { body, params, query } from "../../http/validate.js";
import { RECURRENCE_TYPES, TASK_CATEGORIES, TASK_PRIORITIES, TASK_STATUSES } from "./maintenance.constants.js";
import {
  calendarQuery,
  idParams,
  scheduleCreateSchema,
  scheduleListQuery,
  taskListQuery,
  taskUpdateSchema,
} from "./maintenance.schemas.js";
import { answerEdit } from "../../http/stale-edit.js";
import type { BookingsService } from "../bookings/index.js";
import type { UsersService } from "../auth/index.js";
import type { MaintenanceService } from "./maintenance.service.js";
import { createRouter } from "../../http/router.js";

/** What maintenance's routes use: its service, the staff page guard app.ts builds, and two lower services. */
export interface MaintenanceRoutesDeps {
  maintenance: MaintenanceService;
  /** http/admin.ts staffPage(): signed-in staff, with the sidebar's user, counts and bell. */
  staffPage: RequestHandler[];
  /** The active staff a task may be assigned to. */
  users: Pick<UsersService, "list">;
  /** The dates a booking may move to (the booking dialog). */
  bookings: Pick<BookingsService, "calendar">;
}

/** Staff JSON API of maintenance (staff-side §7): tasks, schedules, the calendar and a task's .ics. */
export function maintenanceApi(deps: Pick<MaintenanceRoutesDeps, "maintenance">): Router {
  const router = createRouter();
  const { maintenance } = deps;

  router.get("/maintenance-tasks", requireStaffApi, async (req, res) => {
    // An inspector's list holds the tasks assigned to them (docs/decisions.md#36).
    const scope = inspectorScopeOf(req);
    const filter = { ...query(req, taskListQuery), ...(scope !== undefined && { assignedTo: scope }) };
    if (wantsCsv(req)) return sendCsv(res, { name: "maintenance-tasks", batches: maintenance.exportTasks(filter) });
    const { rows, total } = await maintenance.listTasks(filter);
    res.setHeader("X-Total-Count", String(total));
    res.json(rows);
  });

  router.patch("/maintenance-tasks/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    await answerEdit(res, maintenance.updateTask(id, body(req, taskUpdateSchema)));
  });

  router.get("/maintenance-tasks/:id/ics", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const ics = await maintenance.taskIcs(id);
    res.setHeader("Content-Disposition", `attachment; filename="haven-task-${id}.ics"`);
    res.type("text/calendar; charset=utf-8").send(ics);
  });

  router.get("/maintenance-schedules", requireStaffApi, async (req, res) => {
    const { rows, total } = await maintenance.listSchedules(query(req, scheduleListQuery));
    res.setHeader("X-Total-Count", String(total));
    res.json(rows);
  });

  router.post("/maintenance-schedules", requireStaffApi, async (req, res) => {
    res.status(201).json(await maintenance.createSchedule(body(req, scheduleCreateSchema)));
  });

  // The calendar's month (or visible range): not-completed tasks and bookings, and each day's task count.
  // `perDay` keeps only a day's first tasks (a cell shows two): the day dialog asks for its day in full.
  // The tasks are spliced in as the JSON text Postgres built: no per-row work here.
  router.get("/maintenance-calendar", requireStaffApi, async (req, res) => {
    const { from, to, tasksJson, countsJson, bookings } = await maintenance.calendar({
      ...query(req, calendarQuery),
      inspectorId: inspectorScopeOf(req),
    });
    res
      .type("application/json")
      .send(
        `{"from":${JSON.stringify(from)},"to":${JSON.stringify(to)},"bookings":${JSON.stringify(bookings)},"taskCounts":${countsJson},"tasks":${tasksJson}}`,
      );
  });

  return router;
}

/** The calendar page, and the staff ICS feed (public, guarded by its secret). */
export function maintenancePages(deps: MaintenanceRoutesDeps): Router {
  const router = createRouter();
  const { maintenance, staffPage, users, bookings } = deps;

  router.get("/admin/maintenance-schedule", ...staffPage, async (_req, res) => {
    // The people a task may be assigned to (active staff users), for the dialog and the list's filter.
    const staff = (await users.list())
      .filter((u) => !u.disabled)
      .map((u) => ({ id: u.id, name: `${u.firstName} ${u.lastName}`.trim() || u.email }));
    res.page("maintenance/maintenance-schedule", {
      title: "Maintenance Schedule | Haven Admin",
      admin: "maintenance",
      islands: true,
      noindex: true,
      props: {
        today: maintenance.today(),
        categories: TASK_CATEGORIES,
        priorities: TASK_PRIORITIES,
        recurrences: RECURRENCE_TYPES,
        statuses: TASK_STATUSES,
        staff,
        // The dates a booking may move to (the wizard's rule), for the booking dialog.
        bookingWindow: (({ minDate, maxDate }) => ({ minDate, maxDate }))(bookings.calendar()),
        // The role's rule decides whether Create Schedule is offered (docs/decisions.md#36).
        canSchedule: res.locals.may?.("POST", "/api/maintenance-schedules") ?? true,
      },
    });
  });

  // Calendar apps subscribe to this URL; the secret in it is the only credential (rotate with
  // `haven calendar rotate-feed`). Unknown secrets get the same 404 as a wrong path.
  router.get("/calendar/feed/:file", async (req, res) => {
    const match = /^(.+)\.ics$/.exec(req.params.file);
    const ics = match ? await maintenance.feed(match[1]!) : null;
    if (!ics) throw new NotFoundError("Page not found");
    res.setHeader("Cache-Control", "private, max-age=300");
    res.type("text/calendar; charset=utf-8").send(ics);
  });

  return router;
}
