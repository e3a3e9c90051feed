// Haven's import rules, checked by `npm run lint` (docs/architecture.md "Modules and layers").
// A module imports only modules in lower layers, and only through their interface: `index.ts`, plus the
// `*.schemas.ts` and `*.constants.ts` files that islands share. No cycles, type-only imports included.

/** The module layers, lowest first. A module may import the layers below its own, never its own layer or above. */
const LAYERS = [
  // The audit trail sits below every module, so each one, auth included, records its changes (docs/decisions.md#39).
  ["audit"],
  // The staff bell's notifications: raised by modules of every layer above, in their own transactions.
  ["notifications"],
  ["mail", "auth", "plans", "tax"],
  ["customers", "payments"],
  // Invoices, credit notes, refunds and the tax report: quote payments and subscriptions both bill through it.
  ["invoices"],
  ["bookings", "inspections", "subscriptions"],
  ["reports", "maintenance", "onboarding"],
  ["quotes"],
  ["sharing"],
  ["my-home", "privacy", "dashboard", "pages", "my-day"],
];

/** Modules that read other modules' tables through a repository of their own, as their READMEs explain. */
const READ_MODELS = ["my-home", "privacy", "my-day"];

const modulePath = (names) => `^src/modules/(${names.join("|")})/`;
const layerRules = LAYERS.map((layer, index) => {
  const sameOrAbove = LAYERS.slice(index).flat();
  return {
    name: `layer-${index + 1}-imports-below`,
    comment: `${layer.join(", ")} may import only modules of lower layers (docs/architecture.md)`,
    severity: "error",
    from: { path: modulePath(layer) },
    to: { path: modulePath(sameOrAbove), pathNot: "^src/modules/$1/" },
  };
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A cycle, type-only imports included: one of its imports must go, through a lower module or a listener.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-container-in-modules",
      comment: "Modules receive what they use through their Deps; only src/container.ts builds them.",
      severity: "error",
      from: { path: "^src/modules/" },
      to: { path: "^src/container\\.ts$" },
    },
    {
      name: "interface-only",
      comment: "Another module is reached through its index.ts (or its *.schemas.ts / *.constants.ts), never its inner files.",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/" },
      to: {
        path: "^src/modules/[^/]+/",
        pathNot: ["^src/modules/$1/", "^src/modules/[^/]+/(index|[^/]+\\.schemas|[^/]+\\.constants)\\.ts$"],
      },
    },
    {
      name: "interface-only-outside",
      comment:
        "The CLI, the seeds and the shared layers reach a module through its interface too; only the composition roots (src/container.ts, src/app.ts, src/jobs.ts, src/worker-runner.ts) build from inner files.",
      severity: "error",
      from: { path: "^(cli|seeds)/|^src/(config|db|http|i18n|shared|observability|ops)/" },
      to: {
        path: "^src/modules/[^/]+/",
        pathNot: ["^src/modules/[^/]+/(index|[^/]+\\.schemas|[^/]+\\.constants)\\.ts$"],
      },
    },
    {
      name: "infrastructure-below-modules",
      comment: "config, db, http, i18n, shared, observability and ops sit below every module and import none (schemas and constants aside).",
      severity: "error",
      from: { path: "^src/(config|db|http|i18n|shared|observability)/" },
      to: { path: "^src/modules/", pathNot: "^src/modules/[^/]+/([^/]+\\.schemas|[^/]+\\.constants)\\.ts$" },
    },
    {
      name: "no-repository-across-modules",
      comment: "A module's repository is its own; others call its service.",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/" },
      to: { path: "^src/modules/[^/]+/.*repository\\.ts$", pathNot: "^src/modules/$1/" },
    },
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|\\.test\\.tsx?$" },
    reporterOptions: {
      dot: { collapsePattern: "^src/modules/[^/]+|^src/[^/]+" },
      archi: { collapsePattern: "^src/modules/[^/]+|^src/[^/]+" },
    },
  },
};
