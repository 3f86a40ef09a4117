// One way to turn an untrusted image into a JPEG: ffmpeg reads the bytes on stdin only (the pipe
// protocol, no file name, no option from the caller), runs our own filter, writes one JPEG frame
// without the input's metadata to stdout. Used by cover thumbnails and profile pictures.
import { imageTypeOf } from '~/shared/image-type'
import { spawnFfmpeg } from './transcode'

/** The image through `filter` as a JPEG, or null when ffmpeg fails or gives no JPEG. */
export async function imageToJpeg(ffmpeg: string, image: Uint8Array, filter: string): Promise<Uint8Array | null> {
  const proc = spawnFfmpeg(
    [
      ffmpeg,
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-threads',
      '1',
      '-protocol_whitelist',
      'pipe',
      '-f',
      'image2pipe',
      '-i',
      'pipe:0',
      '-vf',
      filter,
      '-frames:v',
      '1',
      '-map_metadata',
      '-1',
      '-c:v',
      'mjpeg',
      '-q:v',
      '3',
      '-f',
      'image2',
      'pipe:1',
    ],
    { stdin: image, stdout: 'pipe', stderr: 'ignore' },
  )
  const out = new Uint8Array(await new Response(proc.stdout).arrayBuffer())
  return (await proc.exited) === 0 && imageTypeOf(out) === 'image/jpeg' ? out : null
}
