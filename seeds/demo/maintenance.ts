// Maintenance: after the batches, recurring care for about a quarter of the homes, and a few report
// recommendations made recurring, so the calendar shows upcoming visits next to the bookings.
import type { Container } from "../../src/container.js";
import { addDays } from "../../src/shared/business-time.js";
import type {
  RecurrenceType,
  TaskCategory,
  TaskPriority,
} from "../../src/modules/maintenance/maintenance.constants.js";
import { DAY } from "./dates.js";
import { DEMO_EXTRAS_CAP, type DemoExtrasResult, type DemoReport, type SeededHome } from "./model.js";
import { between, chance, homeRng, pick } from "./random.js";

/** The run's clock and seed, and today's date in the business time zone. */
interface ExtrasClock {
  now: Date;
  seed: number;
  today: string;
}

interface ScheduleTemplate {
  title: string;
  description: string;
  category: TaskCategory;
  priority: TaskPriority;
  recurrenceType: RecurrenceType;
  estimatedDuration: number;
  /** Houses only: a condo has no gutters, roof or driveway of its own. */
  housesOnly?: boolean;
  /** Winter only: starts with the first week of December (or now, in a winter month). */
  winter?: boolean;
}

const SCHEDULE_TEMPLATES: readonly ScheduleTemplate[] = [
  {
    title: "Furnace filter replacement",
    description: "Swap the 16×25×1 pleated filter; note the pressure drop.",
    category: "hvac",
    priority: "medium",
    recurrenceType: "monthly",
    estimatedDuration: 20,
  },
  {
    title: "Gutter cleaning",
    description: "Clear gutters and downspouts, check the extensions drain 1.5 m from the foundation.",
    category: "exterior",
    priority: "medium",
    recurrenceType: "quarterly",
    estimatedDuration: 90,
    housesOnly: true,
  },
  {
    title: "Snow removal",
    description: "Driveway, walkway and steps; salt the landing. Winter service.",
    category: "landscaping",
    priority: "high",
    recurrenceType: "weekly",
    estimatedDuration: 45,
    housesOnly: true,
    winter: true,
  },
  {
    title: "Annual roof check",
    description: "Shingles, flashing, vents and the attic's underside after the freeze-thaw season.",
    category: "roofing",
    priority: "medium",
    recurrenceType: "annually",
    estimatedDuration: 120,
    housesOnly: true,
  },
  {
    title: "Smoke and CO alarm test",
    description: "Test every alarm, replace batteries twice a year, log the dates.",
    category: "safety",
    priority: "high",
    recurrenceType: "monthly",
    estimatedDuration: 15,
  },
  {
    title: "Sump pump check",
    description: "Pour water into the pit, confirm the float starts the pump and the check valve holds.",
    category: "plumbing",
    priority: "medium",
    recurrenceType: "quarterly",
    estimatedDuration: 30,
    housesOnly: true,
  },
  {
    title: "Dryer vent cleaning",
    description: "Brush the duct to the exterior hood; lint build-up is a fire risk.",
    category: "cleaning",
    priority: "low",
    recurrenceType: "annually",
    estimatedDuration: 60,
  },
];

/** Recurring care for about a quarter of the homes, expanded to the default horizon by createSchedule. */
export async function scheduleCare(
  container: Container,
  homes: SeededHome[],
  run: ExtrasClock,
  result: DemoExtrasResult,
) {
  const { today } = run;
  const scheduledHomes = homes.filter((home) => chance(homeRng(run.seed, home.index, 3), 0.25) || home === homes[0]);
  for (const home of scheduledHomes) {
    if (result.schedules >= DEMO_EXTRAS_CAP.schedules) break;
    const rng = homeRng(run.seed, home.index, 4);
    const fits = SCHEDULE_TEMPLATES.filter((t) => !t.housesOnly || home.propertyType !== "condo");
    const count = Math.min(fits.length, between(rng, 1, 3));
    const chosen = new Set<ScheduleTemplate>();
    // The first home shows the whole year's round: furnace, gutters, snow and roof.
    if (home === homes[0]) for (const t of fits.slice(0, 4)) chosen.add(t);
    while (chosen.size < count) chosen.add(pick(rng, fits));
    for (const template of chosen) {
      if (result.schedules >= DEMO_EXTRAS_CAP.schedules) break;
      const { housesOnly: _h, winter, ...fields } = template;
      const month = Number(today.slice(5, 7));
      // Winter care starts in the first week of December, or now when it is winter already.
      const startDate =
        winter && month >= 4 && month <= 11
          ? `${today.slice(0, 4)}-12-0${between(rng, 1, 7)}`
          : addDays(today, between(rng, -40, 14));
      const schedule = await container.maintenance.createSchedule(
        { ...fields, propertyId: home.propertyId, recurrenceInterval: 1, startDate },
        run.now,
      );
      result.schedules++;
      result.scheduledTasks += schedule.tasksCreated;
    }
  }
}

/**
 * A few recommendations (of reports no client has seen) made recurring from a date this month: the
 * recommendation task becomes scheduled and its first visit sits on the calendar next to the bookings.
 */
export async function makeRecommendationsRecurring(
  container: Container,
  reports: DemoReport[],
  shared: Set<number>,
  run: ExtrasClock,
  result: DemoExtrasResult,
) {
  const { today } = run;
  const lastOfMonth = addDays(`${addDays(`${today.slice(0, 7)}-28`, 4).slice(0, 7)}-01`, -1);
  const daysLeft = Math.round((Date.parse(lastOfMonth) - Date.parse(today)) / DAY);
  let recurring = 0;
  for (const report of reports) {
    if (recurring >= Math.min(DEMO_EXTRAS_CAP.recurringRecommendations, Math.max(3, Math.round(reports.length / 6))))
      break;
    if (shared.has(report.reportId) || !report.taskIds.length) continue;
    const rng = homeRng(run.seed, report.home.index, 5);
    const fromTaskId = pick(rng, report.taskIds);
    const schedule = await container.maintenance.createSchedule(
      { fromTaskId, recurrenceType: "annually", startDate: addDays(today, between(rng, 0, daysLeft)) },
      run.now,
    );
    recurring++;
    result.schedules++;
    result.scheduledTasks += schedule.tasksCreated;
  }
}
