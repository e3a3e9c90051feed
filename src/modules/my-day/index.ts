// What src/app.ts uses of My Day (README "Interface").
export { MyDayRepository } from "./my-day.repository.js";
export { type MyDayDeps, myDayPages } from "./my-day.routes.js";
