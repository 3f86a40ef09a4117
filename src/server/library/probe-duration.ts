// Durations the tag reader does not give (ADTS .aac has no length field, QuickTime .mov and Theora
// .ogv it leaves out): ffprobe's, when the server has it (FFMPEG_PATH; without it they stay 0 s).
// One short process per such file, only when the scan reads the file (new or changed).
import { transcodeTools } from '../media/transcode'
import { libraryInput } from '../media/transcode-profile'

/** A file ffprobe cannot finish must not hold up the scan. */
const PROBE_TIMEOUT_MS = 10_000

export async function ffprobeDuration(real: string): Promise<number | null> {
  const { ffprobe } = transcodeTools()
  if (!ffprobe) return null
  // The checked library path, read only as the format its name says (libraryInput), no shell.
  const input = libraryInput(real)
  if (!input) return null
  const args = ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', ...input]
  const proc = Bun.spawn([ffprobe, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'ignore', timeout: PROBE_TIMEOUT_MS })
  const out = await new Response(proc.stdout).text()
  await proc.exited
  const seconds = Number.parseFloat(out.trim())
  return seconds > 0 && Number.isFinite(seconds) ? seconds : null
}
