// Zod compiles object parsers with `new Function` unless told not to, and under the pages' CSP (no
// 'unsafe-eval') even its caught probe for that is reported as a violation. src/router.tsx imports
// this module first, so the setting holds before any schema is built, in the browser and on the
// server alike (one parse path everywhere).
import { z } from 'zod'

z.config({ jitless: true })
