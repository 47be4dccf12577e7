// Import boundaries of Rankwell (issue 31), checked by the static stage of `npm test` (`npm run check:boundaries`).
// The picture (docs/contracts.md, README "Layout"):
//
//   routes ─────────────► features ─────► platform
//      │                    │   ▲
//      └─► ui ◄─────────────┘   │  one direction only:
//                               │  accounts ◄ billing ◄ keywords ◄ content ◄ autopilot/settings ◄ publishing ◄ autopilot
//   worker (entry + registry) ──┘                   content ◄ visibility ◄ rankings ◄ autopilot
//                                  marketing uses accounts, billing, keywords and content
//                                  developers (OpenAPI, MCP) uses every capability; only routes use it
//
// Auto Pilot is two layers: its settings, schedule and webhook (app/features/autopilot/settings/) below publishing,
// which may pause it; the run (the rest of app/features/autopilot/) above publishing and rankings.
//
// Type imports count as imports. A cycle is an error, and so is a dynamic import() between our own modules
// (it only hides a cycle from tools).

/** The layers: each a folder (a regular expression on the path). */
const layers = {
  accounts: '^app/features/accounts/',
  billing: '^app/features/billing/',
  keywords: '^app/features/keywords/',
  content: '^app/features/content/',
  'autopilot-settings': '^app/features/autopilot/settings/',
  publishing: '^app/features/publishing/',
  visibility: '^app/features/visibility/',
  rankings: '^app/features/rankings/',
  autopilot: '^app/features/autopilot/(?!settings/)',
  marketing: '^app/features/marketing/',
  developers: '^app/features/developers/',
}

/** Which layers each layer may import (besides itself, app/platform and app/ui). */
const allowed = {
  accounts: [],
  billing: ['accounts'],
  keywords: ['accounts', 'billing'],
  content: ['accounts', 'billing', 'keywords'],
  'autopilot-settings': ['accounts', 'billing', 'keywords', 'content'],
  publishing: ['accounts', 'billing', 'keywords', 'content', 'autopilot-settings'],
  visibility: ['accounts', 'billing', 'keywords', 'content'],
  rankings: ['accounts', 'billing', 'keywords', 'content', 'visibility'],
  autopilot: [
    'accounts',
    'billing',
    'keywords',
    'content',
    'autopilot-settings',
    'publishing',
    'visibility',
    'rankings',
  ],
  marketing: ['accounts', 'billing', 'keywords', 'content'],
  // The API's description and the MCP server sit on top: they may use every capability, and only routes use them.
  developers: [
    'accounts',
    'billing',
    'keywords',
    'content',
    'autopilot-settings',
    'publishing',
    'visibility',
    'rankings',
    'autopilot',
    'marketing',
  ],
}

const featureRules = Object.keys(layers).map((layer) => ({
  name: `feature-direction-${layer}`,
  comment:
    `${layers[layer]} may import only ` +
    (allowed[layer].length ? `${allowed[layer].join(', ')} (and app/platform, app/ui)` : 'app/platform and app/ui'),
  severity: 'error',
  from: { path: layers[layer] },
  to: {
    path: '^app/features/',
    pathNot: [layer, ...allowed[layer]].map((name) => layers[name]),
  },
}))

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import cycles tangle capabilities: split the module (what each side needs) instead.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-dynamic-import-of-our-modules',
      comment: 'await import() of our own modules hides a dependency (and a cycle) from tools: import it statically.',
      severity: 'error',
      from: { path: '^(app|worker)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(app|worker)/', dependencyTypes: ['dynamic-import'] },
    },
    {
      name: 'platform-imports-no-feature',
      comment: 'app/platform is used by every capability and knows none of them.',
      severity: 'error',
      from: { path: '^app/platform/' },
      to: { path: '^app/(features|routes|ui)/|^worker/' },
    },
    {
      name: 'ui-imports-no-feature',
      comment: 'app/ui holds primitives shared by every capability: it may use app/platform only.',
      severity: 'error',
      from: { path: '^app/ui/' },
      to: { path: '^app/(features|routes)/|^worker/' },
    },
    ...featureRules,
    {
      name: 'features-import-no-route',
      comment: 'Nothing imports a route module: routes are the top of the tree.',
      severity: 'error',
      from: { pathNot: '^app/(root\\.tsx|routes/)' },
      to: { path: '^app/routes/' },
    },
    {
      name: 'routes-import-no-route',
      comment: 'A route does not import another route: move what they share into its feature.',
      severity: 'error',
      from: { path: '^app/routes/[^/]+$' },
      to: { path: '^app/routes/' },
    },
    {
      // The folder's name is captured in parts around its '$' (a route parameter, as in blogpost_.$id.edit):
      // dependency-cruiser puts a captured group into `to` as it is, a regular expression, where a '$' would end it
      // (with '^app/routes/$1/' every import between the files of blogpost_.$id.edit/ was an error).
      name: 'route-folder-keeps-to-itself',
      comment:
        "A route folder (app/routes/<route>/route.tsx with the page's pieces beside it) imports only its own pieces " +
        'from app/routes, never a route module (its route.tsx, another route): what two routes share belongs to a ' +
        'feature or app/ui.',
      severity: 'error',
      from: { path: '^app/routes/([^/$]+)[$]?([^/$]*)[$]?([^/$]*)/[^/]+$' },
      to: { path: '^app/routes/', pathNot: '^app/routes/$1[$]?$2[$]?$3/(?!route[.]tsx?$)[^/]+$' },
    },
    {
      name: 'no-database-in-routes',
      comment: 'Routes parse, call and render: database access lives in a feature module.',
      severity: 'error',
      from: { path: '^app/(routes/|root\\.tsx)' },
      to: { path: '^app/platform/db/|node_modules/(drizzle-orm|postgres)/' },
    },
    {
      name: 'bullmq-only-in-queue-plumbing',
      comment: 'BullMQ is used by app/platform/queue and the worker only; features define jobs with its helpers.',
      severity: 'error',
      from: { pathNot: '^(app/platform/queue/|worker/)' },
      to: { path: 'node_modules/bullmq/' },
    },
    {
      name: 'app-imports-no-tests-or-scripts',
      comment: 'Product code never imports tests, fakes or scripts.',
      severity: 'error',
      from: { path: '^(app|worker)/|^server\\.ts$', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(tests|scripts|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(build|node_modules|\\.data|bench/anchor)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
    skipAnalysisNotInRules: false,
  },
}
