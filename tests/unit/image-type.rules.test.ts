// Cover art is typed by its bytes, never by the tag: only JPEG, PNG, GIF and WebP pass.
import { describe, expect, test } from 'bun:test'
import { imageTypeOf } from '~/shared/image-type'

const bytes = (...parts: Array<string | number[]>) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)))

describe('imageTypeOf', () => {
  test('recognises the four allowed image formats by their signatures', () => {
    expect(imageTypeOf(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))).toBe('image/jpeg')
    expect(imageTypeOf(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'))).toBe('image/png')
    expect(imageTypeOf(bytes('GIF89a', [1, 0, 1, 0]))).toBe('image/gif')
    expect(imageTypeOf(bytes('GIF87a', [1, 0, 1, 0]))).toBe('image/gif')
    expect(imageTypeOf(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp')
  })

  test('anything else is refused: HTML, SVG, text, other RIFF files, truncated signatures, nothing', () => {
    for (const b of [
      bytes('<html><script>alert(1)</script></html>'),
      bytes('<!DOCTYPE html>'),
      bytes('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      bytes('\uFEFF<script>alert(1)</script>'),
      bytes('   <html>'),
      bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '),
      bytes('RIFF', [0, 0]),
      bytes([0xff, 0xd8]),
      bytes([0x89], 'PNG'),
      bytes('GIF8'),
      bytes('BM', [0, 0, 0, 0]),
      new Uint8Array(0),
    ])
      expect(imageTypeOf(b)).toBeNull()
  })
})
