/**
 * The import rules of docs/architecture.md ("Imports"), checked by `npm run lint` (dependency-cruiser:
 * unlike eslint's import/no-cycle it counts type-only imports in cycles). Each rule's name is what a
 * failing run prints beside the file.
 */
/** The rooms under the bot: none of them imports bot/ or jobs/. */
const LOWER = "^src/(upstream|store|domain|render|telegram|cluster|money)/";
const GRAMMY = "^(grammy|@grammyjs/)";

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycles, type-only imports included: a cycle makes a room's order of loading and its meaning depend on each other.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "lower-rooms-no-bot-or-jobs",
      comment: "upstream/, store/, domain/, render/, telegram/, cluster/ and money/ are below the bot and the jobs.",
      severity: "error",
      from: { path: LOWER },
      to: { path: "^src/(bot|jobs)/" },
    },
    {
      name: "jobs-and-server-no-bot",
      comment: "What jobs/ and server/ need of the bot, app.ts hands them.",
      severity: "error",
      from: { path: "^src/(jobs|server)/" },
      to: { path: "^src/bot/" },
    },
    {
      name: "store-no-server",
      severity: "error",
      from: { path: "^src/store/" },
      to: { path: "^src/server/" },
    },
    {
      name: "store-through-index",
      comment: "Consumers of the store import src/store/index.ts only (never store/pg/*, store/file/* or the store's other files).",
      severity: "error",
      from: { pathNot: "^src/store/" },
      to: { path: "^src/store/", pathNot: "^src/store/index\\.ts$" },
    },
    {
      name: "entry-points-only-on-top",
      comment: "main.ts is the process and imports app.ts; only the playground (which builds the app) imports app.ts too.",
      severity: "error",
      from: { pathNot: "^src/(main\\.ts|playground/)" },
      to: { path: "^src/(app|main)\\.ts$" },
    },
    {
      name: "upstream-and-domain-know-no-telegram",
      comment: "The provider's API and the domain rules know no Telegram.",
      severity: "error",
      from: { path: "^src/(upstream|domain)/" },
      to: { path: ["^src/telegram/", GRAMMY] },
    },
    {
      name: "sandbox-is-the-provider",
      comment: "sandbox/ simulates the provider: it knows no bot-side code and no Telegram.",
      severity: "error",
      from: { path: "^src/sandbox/" },
      to: { path: ["^src/(bot|jobs|render|telegram|server|playground|cluster|store)/", GRAMMY] },
    },
    {
      name: "money-knows-no-grammy",
      comment: "money/ may import domain/, store/ (index.ts), upstream/, tools/, logging/ only; no grammY.",
      severity: "error",
      from: { path: "^src/money/" },
      to: { path: ["^src/(?!(money|domain|store|upstream|tools|logging)/)", GRAMMY] },
    },
  ],
  options: {
    // Type-only imports are edges too (cycles through `import type` count).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    // Package subpath exports (grammy/types, lowdb/node).
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
    cache: false,
  },
};
