// `bun run serve` (and the tests): the server from the sources (serve-from-disk.ts).
// `bun run backup` too: the command line answers before the configuration or the app loads.
import { runCommandLine } from './cli'

await runCommandLine(process.argv.slice(2), 'bun run start --')

const { serveFromDisk } = await import('./serve-from-disk')
await serveFromDisk()
