// Zod compiles object parsers with `new Function` unless told not to, and under the pages' CSP (no
// 'unsafe-eval') even its caught probe for that is reported as a violation. src/router.tsx imports
// this module first, so the setting holds before any schema is built, in the browser and on the
// server alike (one parse path everywhere).
// Zod keeps its settings in one object on globalThis (zod/v4/core/core.js creates it if missing and
// reads `jitless` from it at parse time), so setting the flag there needs no zod import: calling
// `z.config` shipped zod's core in every page's first chunk, before any page had a schema to parse
// (about 0.5 KiB gzipped of the `/` budget). tests/unit/zod-config.rules.test.ts checks that zod
// still reads the flag from here.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
zodGlobal.__zod_globalConfig ??= {}
zodGlobal.__zod_globalConfig.jitless = true
