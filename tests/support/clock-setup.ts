// A setup file of every test project (vitest.config.ts): the suite's clock as HAVEN_TEST_NOW sets it
// (tests/support/clock.ts), before the test file and the app it builds are loaded. It runs again before each file
// of a worker that runs many (the browser project), so no file inherits another's dates.
import { restoreSuiteTime } from "./clock.js";

restoreSuiteTime();
