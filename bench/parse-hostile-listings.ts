// Reading hostile remote answers of up to 5 MB (the fetch cap): unclosed and nested anchors,
// tag soup, comma-less #EXTINF lines, millions of playlist lines. Every parse must stay linear
// (goal: each under 500 ms; a quadratic reader took 47 s on 450 kB of unclosed anchors).
//   bun bench/parse-hostile-listings.ts
import { parsePlaylist } from '~/server/remote/parse'

const FIVE_MB = 5 * 1024 * 1024
const html = 'text/html'
const cases: Array<[string, string, string, string]> = [
  ['unclosed anchors, one URL', '<a href=x.mp3>'.repeat(FIVE_MB / 14), 'http://h/', html],
  ['unclosed anchors, distinct URLs', Array.from({ length: FIVE_MB / 20 }, (_, i) => `<a href=${i}.mp3>`).join(''), 'http://h/', html],
  [
    '290 anchors per </a>',
    Array.from({ length: FIVE_MB / 6000 }, (_, g) => Array.from({ length: 290 }, (_, i) => `<a href=${g}-${i}.mp3>`).join('') + '</a>').join(''),
    'http://h/',
    html,
  ],
  ["one link, then 5 MB of '<'", '<a href=x.mp3>' + '<'.repeat(FIVE_MB) + '</a>', 'http://h/', html],
  ["'<a ' without '>'", '<a '.repeat(FIVE_MB / 3), 'http://h/', html],
  ['entities', '<a href="x.mp3">' + '&#1'.repeat(FIVE_MB / 3) + '</a>', 'http://h/', html],
  ['#EXTINF without comma', '#EXTM3U\n#EXTINF:' + '1'.repeat(FIVE_MB), 'http://h/x.m3u', 'audio/x-mpegurl'],
  ['M3U, 2.6 M short lines', '#EXTM3U\n' + 'a\n'.repeat(FIVE_MB / 2), 'http://h/x.m3u', 'audio/x-mpegurl'],
  ['M3U, 1 M non-media lines', '#EXTM3U\n' + 'a.txt\n'.repeat(FIVE_MB / 6), 'http://h/x.m3u', 'audio/x-mpegurl'],
  ['PLS, 650 k lines', '[playlist]\n' + 'File1=a\n'.repeat(FIVE_MB / 8), 'http://h/x.pls', 'audio/x-scpls'],
  ['JSON, 100 k items', JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ url: `${i}.mp3`, title: 't' }))), 'http://h/', 'application/json'],
]
for (const [name, body, url, contentType] of cases) {
  const started = performance.now()
  const n = parsePlaylist(body, url, contentType).length
  const ms = performance.now() - started
  console.log(
    `${name.padEnd(32)} ${(body.length / 1024 / 1024).toFixed(1).padStart(4)} MB  ${String(n).padStart(6)} tracks  ${ms.toFixed(0).padStart(5)} ms${ms > 500 ? '  (over 500 ms)' : ''}`,
  )
}
