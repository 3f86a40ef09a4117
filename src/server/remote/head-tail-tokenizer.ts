// A tokenizer for music-metadata over the two parts of a remote file we read by range: its head
// and its tail, at their true positions in a file of known size. Tags and stream headers sit in
// the head, ID3v1/APE tags and an Ogg stream's last page in the tail; a read that falls in the
// gap between them (the audio itself) ends the stream, as a truncated file would.
import { AbstractTokenizer, EndOfStreamError, type IFileInfo, type IReadChunkOptions } from 'strtok3'

export class HeadTailTokenizer extends AbstractTokenizer {
  fileInfo: IFileInfo & { size: number }
  private readonly tailStart: number

  constructor(
    private readonly head: Uint8Array,
    private readonly tail: Uint8Array,
    size: number,
    fileInfo: Omit<IFileInfo, 'size'>,
  ) {
    super()
    this.fileInfo = { ...fileInfo, size }
    this.tailStart = size - tail.length
  }

  /** Without a tail there is nothing to find at the end (music-metadata then does not look there). */
  supportsRandomAccess(): boolean {
    return this.tail.length > 0
  }

  setPosition(position: number): void {
    this.position = position
  }

  async readBuffer(buffer: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const n = await this.peekBuffer(buffer, options)
    this.position = (options?.position ?? this.position) + n
    return n
  }

  async peekBuffer(buffer: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const at = options?.position ?? this.position
    const length = options?.length ?? buffer.length
    const [part, offset] = at >= this.tailStart && this.tail.length > 0 ? [this.tail, at - this.tailStart] : [this.head, at]
    const n = Math.max(0, Math.min(length, part.length - offset, this.fileInfo.size - at))
    if (n < length && !options?.mayBeLess) throw new EndOfStreamError()
    buffer.set(part.subarray(offset, offset + n))
    return n
  }
}
