// A hostile client against the whole API: fast-check throws wrong types, huge and odd strings
// (NUL, lone surrogates, right-to-left marks), deep nesting, prototype keys (__proto__,
// constructor), negative / huge / non-finite numbers, arrays for objects, bad JSON, superjson
// metadata that asks for odd types, path params with `..`, %00 and %2e, and repeated query
// params at every REST route of the route table and every procedure of the tRPC router (read from
// the code, so a new one is swept the day it lands), as a member and as an admin (who gets past
// the admin check to the input validation). Every answer must be a client error in the JSON
// envelope (REST) or a tRPC error, or a success; never a 5xx, a stack frame or a source path; and
// the server must be healthy afterwards. Every page of the app's route table, every route and
// procedure is also asked plainly by HEAD and by GET, signed out and signed in: never a 5xx or a
// leak, a HEAD answer without a body, and no empty 200 GET (as a HEAD once left in the page cache). Reproduce a failure with the seed it prints:
// SWEEP_SEED=<seed> bun test --timeout 300000 ./tests/integration/hostile.sweep.test.ts
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import superjson from 'superjson'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import {
  fillPath,
  type Ids,
  leakIn,
  loadApiSurface,
  type ProcedureInfo,
  type RestRouteInfo,
  SAMPLES,
  sampleInputs,
  type Tier,
  TRPC_ONLY_SAMPLES,
} from '../helpers/api-surface'
import { sqlOn } from '../helpers/engine'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { envelopeOf, loadRestMethods, type RestIds, type RestParams, restCall, restSample } from '../helpers/rest-surface'
import { startServer, type TestServer } from '../helpers/server'

const SEED = Number(process.env.SWEEP_SEED ?? 20261123)
const RUNS = Number(process.env.SWEEP_RUNS ?? 20)
const surface = await loadApiSurface()

let server: TestServer
type Identity = { name: string; token: string; ids: Ids; relogin: () => Promise<string> }
let identities: Identity[]

async function memberWithThings(label: string) {
  const m = await createMember(server.url)
  mkdirSync(path.join(server.mediaRoot, label), { recursive: true })
  const folder = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label, path: `/${label}` } })
  const play = await api(server.url, 'POST', '/playlist/plays', { token: m.token, body: { trackUrl: `https://nas.example.com/${label}.mp3`, title: label } })
  const playlist = await api(server.url, 'POST', '/user/playlists', { token: m.token, body: { name: `${label} playlist` } })
  return { m, folderId: folder.body.data.id as string, playEventId: play.body.data.playEventId as string, playlistId: playlist.body.data.id as string }
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  mkdirSync(path.join(server.mediaRoot, 'sample'))
  const message = await api(server.url, 'POST', '/contact', {
    body: { fullName: 'Sweep Sender', email: 'sweep@example.com', message: 'A message the sweep may address.' },
  })
  const messageId = message.body.data.id as string
  const member = await memberWithThings('member-music')
  const victim = await memberWithThings('victim-music')
  const login = (email: string, password: string) => async () =>
    (await api(server.url, 'POST', '/auth/login', { body: { email, password } })).body.data.token as string
  identities = [
    {
      name: 'member',
      token: member.m.token,
      ids: { userId: member.m.user.id, folderId: member.folderId, playEventId: member.playEventId, messageId, playlistId: member.playlistId },
      relogin: login(member.m.email, member.m.password),
    },
    // The admin's samples address another member, so a mutation that goes through hurts nobody who matters here.
    {
      name: 'admin',
      token: await loginAdmin(server.url),
      ids: { userId: victim.m.user.id, folderId: victim.folderId, playEventId: victim.playEventId, messageId, playlistId: victim.playlistId },
      relogin: () => loginAdmin(server.url),
    },
  ]
})
afterAll(async () => {
  await server?.stop()
})

// --- hostile values ------------------------------------------------------------------------

const HUGE = ['x'.repeat(70_000), 'é'.repeat(300_000), '\u0000'.repeat(5_000)]
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Eevil',
  '\uFEFF',
  'ｅｘａｍｐｌｅ',
  'e\u0301',
  '👩‍👩‍👧‍👦'.repeat(30),
  '../../../../etc/passwd',
  '..\\..\\windows',
  '%00',
  '%2e%2e%2f',
  '/',
  '//',
  '.',
  '..',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '99999999999999999999',
  'true',
  'false',
  '[]',
  '{}',
  'http://127.0.0.1/',
  'http://[::1]/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'http://0x7f000001/',
  'a@b.c',
  '\r\nSet-Cookie: x=1',
]
const EDGE_NUMBERS = [0, -0, -1, 1, 0.5, -0.5, 7, 90, 2 ** 31, -(2 ** 31), 2 ** 53, -(2 ** 53), 2 ** 64, 1e308, -1e308, Number.MIN_VALUE, 1e-7]
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', '', ' ', '0', 'a.b', '$where']

// Every key any sample sends, so hostile values land on the fields the validators look at.
const KNOWN_KEYS = [
  ...new Set(
    Object.values(SAMPLES).flatMap((s) => {
      const x = s({ userId: 'u', folderId: 'f', playEventId: 'p', messageId: 'm', playlistId: 'l' })
      return [...Object.keys(x.query ?? {}), ...(x.body && typeof x.body === 'object' ? Object.keys(x.body) : [])]
    }),
  ),
]

const key = fc.oneof(fc.constantFrom(...KNOWN_KEYS, ...HOSTILE_KEYS), fc.string({ maxLength: 12 }))
const smallString = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 200, maxLength: 3000 }),
)
const number = fc.oneof(fc.constantFrom(...EDGE_NUMBERS), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
const leaf = fc.oneof(smallString, number, fc.boolean(), fc.constant(null))
const { value: smallValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })),
}))
/** Any JSON value, now and then a huge string. */
const value = fc.oneof({ weight: 9, arbitrary: smallValue }, { weight: 1, arbitrary: fc.constantFrom(...HUGE) })

// Lengths around the limits the validators use (names 100, e-mail 254, titles 500, URLs 2048…).
const LIMIT_LENGTHS = [1, 2, 49, 50, 51, 64, 65, 99, 100, 101, 128, 129, 200, 201, 254, 255, 256, 500, 501, 1000, 1001, 2048, 2049, 5000]

/** A value close to a valid one: the same kind at and past its limits, or the wrong kind. */
function near(original: unknown): fc.Arbitrary<unknown> {
  if (typeof original === 'string') {
    return fc.oneof(
      fc.tuple(fc.constantFrom(...LIMIT_LENGTHS), fc.constantFrom('a', 'é', '👍🏽', ' ', '\u0000', '/')).map(([n, unit]) => unit.repeat(n)),
      fc.constantFrom(...ODD_STRINGS).map((odd) => `${original}${odd}`),
      fc.constantFrom(
        original.toUpperCase(),
        ` ${original} `,
        original.normalize('NFD'),
        `/${original}`,
        `${original}/..`,
        [original],
        { value: original },
        Number(original),
        null,
      ),
    )
  }
  if (typeof original === 'number')
    return fc.oneof(
      fc.constantFrom(...EDGE_NUMBERS, String(original), `${original}.0`, [original], null),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    )
  if (typeof original === 'boolean') return fc.constantFrom('true', 'false', 1, 0, 'yes', null, [original], !original)
  if (Array.isArray(original))
    return fc.oneof(
      fc.constant([]),
      fc.constant([...original, ...original]),
      fc.constant(Array.from({ length: 1001 }, () => original[0] ?? 'x')),
      fc.array(smallValue, { maxLength: 3 }),
    )
  return smallValue
}

// The same idea as a fixed list, tried on every field of every sample before the random runs.
const FIXED_LENGTHS = [1, 2, 50, 51, 100, 101, 128, 129, 254, 255, 500, 501, 2048, 2049, 5000]
function fixedNear(original: unknown): unknown[] {
  if (typeof original === 'string')
    return [
      ...FIXED_LENGTHS.map((n) => 'a'.repeat(n)),
      'é'.repeat(101),
      '👍🏽'.repeat(101),
      '',
      ' ',
      '\u0000',
      `${original}\u0000`,
      `${original}\uD800`,
      `/${original}/..`,
      original.toUpperCase(),
      5,
      true,
      null,
      [original],
      { value: original },
    ]
  if (typeof original === 'number') return [...EDGE_NUMBERS, String(original), null, [original], true]
  if (typeof original === 'boolean') return ['true', 1, null, [original], !original]
  if (Array.isArray(original)) return [[], [...original, ...original], Array.from({ length: 1001 }, () => original[0] ?? 'x'), [null], [{}], [[]]]
  return [null, {}, [], 'x']
}

/** Every field of a valid input changed to each fixed neighbour, dropped, or joined by a hostile key. */
function fixedVariants(sample: unknown): unknown[] {
  if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return [undefined, null, {}, [], 'x', 0]
  const base = sample as Record<string, unknown>
  return [
    ...Object.keys(base).flatMap((k) => [
      ...fixedNear(base[k]).map((x) => ({ ...base, [k]: x })),
      Object.fromEntries(Object.entries(base).filter(([other]) => other !== k)),
    ]),
    ...HOSTILE_KEYS.map((k) => ({ ...base, [k]: { isAdmin: true } })),
    [base],
  ]
}

/** A valid input with one field changed, added or dropped: gets past the shape to the field rules. */
function mutated(sample: unknown, v: fc.Arbitrary<unknown>) {
  const base = sample && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : {}
  const keys = Object.keys(base)
  const changed = keys.length
    ? fc.constantFrom(...keys).chain((k) => fc.oneof({ weight: 3, arbitrary: near(base[k]) }, { weight: 1, arbitrary: v }).map((x) => ({ ...base, [k]: x })))
    : fc.tuple(key, v).map(([k, x]) => ({ ...base, [k]: x }))
  return fc.oneof(
    { weight: 6, arbitrary: changed },
    { weight: 2, arbitrary: fc.tuple(key, v).map(([k, x]) => ({ ...base, [k]: x })) },
    { weight: 1, arbitrary: fc.constant(Object.fromEntries(keys.slice(1).map((k) => [k, base[k]]))) },
    { weight: 1, arbitrary: fc.constant([base]) },
  )
}

const nest = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth)
const BAD_JSON = [
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'nul',
  'NaN',
  'Infinity',
  '-',
  '1e999999',
  '"\\ud800"',
  '"\\u0000"',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '\u0000',
  '\uFEFF{}',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  '\r\n',
  'null',
  'true',
  '0',
  '[]',
  '""',
]
const deepText = fc.oneof(
  fc.integer({ min: 50, max: 20_000 }).map((d) => nest(d, '[', ']')),
  fc.integer({ min: 50, max: 20_000 }).map((d) => nest(d, '{"a":', '}')),
  fc.integer({ min: 50, max: 5_000 }).map((d) => nest(d, '{"__proto__":', '}', '{"polluted":true}')),
)
const rawText = fc.oneof(fc.constantFrom(...BAD_JSON), fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }), deepText)

// Values only superjson can carry (NaN, -0, BigInt, invalid dates, Map, Set, RegExp, undefined),
// and hand-made superjson metadata that asks for odd conversions or walks into prototypes.
const special = fc.oneof(
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    undefined,
    new Date(Number.NaN),
    new Date(8.64e15),
    /a|b/g,
    new Map([['a', 1]]),
    new Set([1, 2]),
  ),
  fc.bigInt(),
  fc.date({ noInvalidDate: false }),
)
const metaPath = fc.oneof(
  fc.constantFrom(...KNOWN_KEYS, '__proto__', 'constructor.prototype', '__proto__.polluted', 'a.b.c', '', 'json'),
  fc.string({ maxLength: 10 }),
)
const metaType = fc.constantFrom<unknown>(
  ['number'],
  ['Date'],
  ['bigint'],
  ['undefined'],
  ['set'],
  ['map'],
  ['regexp'],
  ['symbol', 'x'],
  ['class', 'Object'],
  ['custom', 'x'],
  'number',
  'Date',
  ['nope'],
  [],
  null,
  5,
)
const hostileMeta = fc.record({
  values: fc.dictionary(metaPath, metaType, { maxKeys: 3 }),
  referentialEqualities: fc.option(fc.dictionary(metaPath, fc.array(metaPath, { maxLength: 2 }), { maxKeys: 2 })),
  v: fc.constantFrom(1, 2, -1, 'x'),
})

function serializedOrNull(value: unknown): string | null {
  try {
    return JSON.stringify(superjson.serialize(value))
  } catch {
    return null
  }
}

/** The text of a tRPC input (superjson-serialised as the client sends it), hostile in every part. */
function trpcInput(sample: unknown, forUrl: boolean) {
  const v = forUrl ? smallValue : value
  return fc.oneof(
    { weight: 6, arbitrary: mutated(sample, v).map((json) => JSON.stringify({ json })) },
    { weight: 2, arbitrary: v.map((json) => JSON.stringify({ json })) },
    // (superjson itself refuses to write prototype keys; those go through the other branches.)
    {
      weight: 2,
      arbitrary: mutated(sample, special)
        .map(serializedOrNull)
        .filter((x): x is string => x !== null),
    },
    { weight: 2, arbitrary: fc.tuple(fc.oneof(v, mutated(sample, v)), hostileMeta).map(([json, meta]) => JSON.stringify({ json, meta })) },
    { weight: 1, arbitrary: v.map((x) => JSON.stringify(x)) },
    { weight: 2, arbitrary: forUrl ? fc.oneof(fc.constantFrom(...BAD_JSON), fc.string({ maxLength: 200 })) : rawText },
  )
}

// --- REST requests --------------------------------------------------------------------------

/** Percent-encodes like a client would (a lone surrogate has no UTF-8 form: it becomes U+FFFD). */
const enc = (s: string) => encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'))

const RAW_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '%00',
  'a%00b',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AE',
  '%uD800',
  '%20',
  '%2520',
  '~',
  '*',
  ';x=1',
  'a#b',
  'x'.repeat(5000),
]
const segment = (sample: string | undefined) => fc.oneof(fc.constantFrom(...RAW_SEGMENTS), smallString.map(enc), fc.constant(enc(sample ?? 'x')))

const RAW_QUERIES = [
  '%',
  '%zz',
  '&&&',
  '=',
  '==',
  'a=%00',
  '%5B%5D=1',
  'a[]=1&a[]=2',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'page',
  'days=7&days=90&days=x',
]
const queryKey = fc.oneof(
  fc.constantFrom(...KNOWN_KEYS, 'page', 'url', 't', 'input', 'batch', '__proto__', 'constructor', 'hasOwnProperty'),
  fc.string({ maxLength: 8 }),
)
const queryValue = fc.oneof(smallString, number.map(String), fc.constant(''))
function queryString(sample: Record<string, string> = {}) {
  const pairs = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 6 })
  return fc.tuple(fc.boolean(), pairs, fc.option(fc.constantFrom(...RAW_QUERIES))).map(([keepSample, extra, raw]) => {
    // Sample keys come first and may be repeated by the extras with other values.
    const all = [...(keepSample ? Object.entries(sample) : []), ...extra].map(([k, v]) => `${enc(k)}=${enc(v)}`)
    if (raw) all.push(raw)
    return all.length ? `?${all.join('&')}` : ''
  })
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
]

type Body = { text: string; contentType: string } | null
function restBody(sample: unknown): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 8, arbitrary: mutated(sample, value).map((v) => ({ text: JSON.stringify(v), contentType: 'application/json' })) },
    {
      weight: 3,
      arbitrary: fc.tuple(value, fc.constantFrom(...CONTENT_TYPES)).map(([v, contentType]) => ({ text: JSON.stringify(v) ?? 'null', contentType })),
    },
    { weight: 3, arbitrary: rawText.map((text) => ({ text, contentType: 'application/json' })) },
    // Just over the 1 MB body limit: a 413 in the envelope is the answer.
    { weight: 1, arbitrary: fc.constant({ text: JSON.stringify({ label: 'x'.repeat(1_100_000), path: '/sample' }), contentType: 'application/json' }) },
  )
}

// --- checking answers -----------------------------------------------------------------------

/** What is wrong with an answer, or null: a fault, a leak, or an error outside its envelope. */
function problemWith(kind: 'rest' | 'trpc', status: number, text: string): string | null {
  if (status >= 500) return `server fault ${status}`
  const leak = leakIn(text)
  if (leak) return `answer leaks ${leak}`
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    return 'answer is not JSON'
  }
  if (kind === 'rest') {
    if (status >= 400)
      return body?.success === false && typeof body.error === 'string' && body.error.length > 0 ? null : 'error outside the {success:false,error} envelope'
    return body?.success === true ? null : 'success outside the {success:true,data} envelope'
  }
  const items = Array.isArray(body) ? body : [body]
  for (const item of items) {
    if (item && 'result' in item) continue
    const error = item?.error?.json
    if (typeof error?.message !== 'string' || typeof error?.data?.code !== 'string' || typeof error?.data?.httpStatus !== 'number')
      return 'not a tRPC error shape'
    if (!Array.isArray(body) && error.data.httpStatus !== status) return `tRPC error says ${error.data.httpStatus} but the status is ${status}`
  }
  return null
}

/** One request; a dropped connection or no answer within 10 s is reported like a fault. */
async function send(url: string, init: RequestInit): Promise<{ status: number; text: string; contentType: string }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
    return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' }
  } catch (error) {
    return { status: 599, text: `no answer: ${error instanceof Error ? error.message : String(error)}`, contentType: '' }
  }
}

function sampleOf(info: RestRouteInfo, ids: Ids) {
  return SAMPLES[info.key]?.(ids) ?? {}
}

type RestCase = { params: Record<string, string>; query: string; body: Body }

function restRequest(info: RestRouteInfo, ids: Ids): { arbitrary: fc.Arbitrary<RestCase>; examples: RestCase[] } {
  const sample = sampleOf(info, ids)
  const keys = [...info.route.path.matchAll(/:(\w+)/g)].map((m) => m[1])
  const params = fc.tuple(...keys.map((k) => segment(sample.params?.[k]))).map((values) => Object.fromEntries(keys.map((k, i) => [k, values[i]])))
  const hasBody = info.route.method !== 'GET'
  const arbitrary = fc.record({ params, query: queryString(sample.query), body: hasBody ? restBody(sample.body) : fc.constant(null) })

  // Fixed cases: each path param replaced by each odd segment, each query value by each fixed
  // neighbour; the rest of the request stays valid. (Body fields get theirs through tRPC: the same
  // procedure and validator, and half the password hashing.)
  const validParams = Object.fromEntries(keys.map((k) => [k, enc(sample.params?.[k] ?? 'x')]))
  const validQuery = (q: Record<string, unknown>) =>
    Object.keys(q).length
      ? `?${Object.entries(q)
          .map(([k, v]) => `${enc(k)}=${enc(String(v))}`)
          .join('&')}`
      : ''
  const validBody: Body = hasBody && sample.body !== undefined ? { text: JSON.stringify(sample.body), contentType: 'application/json' } : null
  const examples: RestCase[] = [
    ...keys.flatMap((k) => RAW_SEGMENTS.map((raw) => ({ params: { ...validParams, [k]: raw }, query: validQuery(sample.query ?? {}), body: validBody }))),
    ...(sample.query ? fixedVariants(sample.query) : [])
      .filter((q): q is Record<string, unknown> => !!q && typeof q === 'object' && !Array.isArray(q))
      .map((q) => ({ params: validParams, query: validQuery(q), body: validBody })),
  ]
  return { arbitrary, examples }
}

function procedureSample(proc: ProcedureInfo, ids: Ids): unknown {
  if (TRPC_ONLY_SAMPLES[proc.path]) return TRPC_ONLY_SAMPLES[proc.path](ids)
  for (const info of surface.routes) {
    if (!info.procedures.includes(proc.path)) continue
    const call = sampleInputs(info, sampleOf(info, ids)).find((c) => c.procedure === proc.path)
    if (call) return call.input
  }
  return undefined
}

type TrpcCase = { input: string; batch: boolean; extraQuery: string | null; contentType: string }

function trpcRequest(proc: ProcedureInfo, ids: Ids): { arbitrary: fc.Arbitrary<TrpcCase>; examples: TrpcCase[] } {
  const sample = procedureSample(proc, ids)
  const isQuery = proc.type === 'query'
  const fits = (input: string) => !isQuery || enc(input).length < 12_000
  const arbitrary = fc.record({
    input: trpcInput(sample, isQuery).filter(fits),
    batch: fc.boolean(),
    extraQuery: fc.option(fc.constantFrom(...RAW_QUERIES)),
    contentType: fc.constantFrom(...CONTENT_TYPES),
  })
  const examples = fixedVariants(sample)
    .map((x) => JSON.stringify({ json: x }))
    .filter(fits)
    .map((input) => ({ input, batch: false, extraQuery: null, contentType: 'application/json' }))
  return { arbitrary, examples }
}

const shown = (x: unknown) =>
  JSON.stringify(x, (_, v) => (typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}…(${v.length})` : typeof v === 'bigint' ? `${v}n` : v))
const FIXED_AT_ONCE = 3

/**
 * Tries the fixed cases (a few at a time), then the random runs as a fast-check property. The
 * fixed cases go only to the caller who gets past the tier check (the member for public and
 * member calls, the admin for admin calls); the random runs go to both.
 */
async function check<T>(
  label: string,
  cases: { arbitrary: fc.Arbitrary<T>; examples: T[] },
  withFixed: boolean,
  run: (x: T) => Promise<string | null>,
): Promise<string | null> {
  const examples = withFixed ? cases.examples : []
  for (let i = 0; i < examples.length; i += FIXED_AT_ONCE) {
    const batch = examples.slice(i, i + FIXED_AT_ONCE)
    const results = await Promise.all(batch.map(run))
    const bad = results.findIndex(Boolean)
    if (bad >= 0) return `${label}: ${results[bad]}\n  fixed case ${shown(batch[bad])}`
  }
  const details = await fc.check(
    fc.asyncProperty(cases.arbitrary, async (x) => {
      const problem = await run(x)
      if (problem) throw new Error(problem)
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  )
  if (!details.failed) return null
  return `${label}: ${details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance}\n  seed ${details.seed}, path ${details.counterexamplePath}\n  ${shown(details.counterexample)}`
}

const reachesValidation = (who: Identity, tier: Tier) => (tier === 'admin') === (who.name === 'admin')

async function stillSignedIn(who: Identity) {
  if ((await api(server.url, 'GET', '/auth/session', { token: who.token })).status !== 200) who.token = await who.relogin()
}

// --- the sweep ------------------------------------------------------------------------------

describe(`hostile input at every route and procedure (seed ${SEED}, ${RUNS} runs each)`, () => {
  for (const name of ['member', 'admin']) {
    test(`REST as ${name}: no fault, no leak, every error in the envelope`, async () => {
      const who = identities.find((i) => i.name === name)!
      const problems: string[] = []
      for (const info of surface.routes) {
        const problem = await check(`${name} ${info.key}`, restRequest(info, who.ids), reachesValidation(who, info.tier), async ({ params, query, body }) => {
          const url = `${server.url}/api${fillPath(info.route.path, params, (s) => s)}${query}`
          const headers: Record<string, string> = { authorization: `Bearer ${who.token}` }
          if (body) headers['content-type'] = body.contentType
          const res = await send(url, { method: info.route.method, headers, body: body?.text })
          const problem = problemWith('rest', res.status, res.text)
          return (
            problem && `${problem}: ${info.route.method} ${url.slice(server.url.length, server.url.length + 200)} → ${res.status} ${res.text.slice(0, 300)}`
          )
        })
        if (problem) problems.push(problem)
        await stillSignedIn(who)
      }
      expect(problems).toEqual([])
    }, 300_000)

    test(`tRPC as ${name}: no fault, no leak, every error a tRPC error`, async () => {
      const who = identities.find((i) => i.name === name)!
      const problems: string[] = []
      for (const proc of surface.procedures) {
        const problem = await check(
          `${name} trpc ${proc.path}`,
          trpcRequest(proc, who.ids),
          reachesValidation(who, proc.tier),
          async ({ input, batch, extraQuery, contentType }) => {
            const target = batch ? `${proc.path},${proc.path}` : proc.path
            const query = [batch ? 'batch=1' : '', proc.type === 'query' ? `input=${enc(batch ? `{"0":${input},"1":${input}}` : input)}` : '', extraQuery ?? '']
              .filter(Boolean)
              .join('&')
            const url = `${server.url}/api/trpc/${target}${query ? `?${query}` : ''}`
            const headers = { authorization: `Bearer ${who.token}`, 'content-type': contentType }
            const res =
              proc.type === 'query'
                ? await send(url, { headers })
                : await send(url, { method: 'POST', headers, body: batch ? `{"0":${input},"1":${input}}` : input })
            const problem = problemWith('trpc', res.status, res.text)
            return problem && `${problem}: ${url.slice(server.url.length, server.url.length + 200)} → ${res.status} ${res.text.slice(0, 300)}`
          },
        )
        if (problem) problems.push(problem)
        await stillSignedIn(who)
      }
      expect(problems).toEqual([])
    }, 300_000)
  }

  test('HEAD and GET at every page, REST route and procedure, signed out, as member and as admin: no fault, no leak, HEAD without a body, no empty GET', async () => {
    // Every page of the app's route table (the generated file lists each full path), parameters filled in.
    const routeTree = readFileSync(path.resolve(import.meta.dir, '../../src/routeTree.gen.ts'), 'utf8')
    const pagePaths = [...(/fullPaths:([\s\S]*?)\n\s*fileRoutesByTo/.exec(routeTree)?.[1] ?? '').matchAll(/'([^']+)'/g)]
      .map((m) => m[1])
      .filter((p) => !p.startsWith('/api/') && !p.startsWith('/media/'))
      .map((p) => p.replace(/\$\w+/g, 'sample'))
    expect(pagePaths).toContain('/login')
    expect(pagePaths).toContain('/admin/dashboard')
    const targets = [
      ...pagePaths,
      '/no-such-page',
      ...new Set(surface.routes.map((info) => `/api${fillPath(info.route.path, sampleOf(info, identities[0].ids).params)}`)),
      ...surface.procedures.map((proc) => `/api/trpc/${proc.path}`),
      '/api/no-such-route',
      '/metrics',
      '/rest/ping.view',
      '/media/no-such-file.mp3',
    ]
    const callers: Array<{ name: string; headers: Record<string, string> }> = [
      { name: 'signed out', headers: {} },
      ...identities.map((who) => ({ name: who.name, headers: { authorization: `Bearer ${who.token}` } })),
    ]
    const problems: string[] = []
    for (const caller of callers) {
      for (let i = 0; i < targets.length; i += FIXED_AT_ONCE) {
        await Promise.all(
          targets.slice(i, i + FIXED_AT_ONCE).map(async (target) => {
            for (const method of ['HEAD', 'GET']) {
              const res = await send(server.url + target, { method, headers: caller.headers, redirect: 'manual' })
              const problem =
                res.status >= 500
                  ? `server fault ${res.status}`
                  : leakIn(res.text)
                    ? `answer leaks ${leakIn(res.text)}`
                    : method === 'HEAD' && res.text
                      ? 'HEAD answered with a body'
                      : method === 'GET' && res.status === 200 && !res.text
                        ? 'GET answered 200 with an empty body'
                        : null
              if (problem) problems.push(`${caller.name} ${method} ${target}: ${problem} → ${res.status} ${res.text.slice(0, 300)}`)
            }
          }),
        )
      }
    }
    expect(problems).toEqual([])
  }, 300_000)

  test('afterwards the server is healthy: health 200, a login works, no server error was recorded or logged', async () => {
    expect((await api(server.url, 'GET', '/health')).status).toBe(200)
    expect((await api(server.url, 'POST', '/auth/login', { body: ADMIN })).status).toBe(200)
    expect(await sqlOn(server, 'SELECT method, path, message FROM server_errors')).toEqual([])
    expect(server.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([])
  })
})

// --- /rest: the OpenSubsonic API --------------------------------------------------------------
// Every method the handler knows (read from its tables) with hostile parameter values: huge
// strings, NULs, traversal and absolute paths (plain and as folder ids, which carry a path),
// loopback URLs, negative and huge numbers, repeated parameters, by GET and by form POST, in XML,
// JSON and JSONP with a hostile callback, as a member and as an admin. Every answer must be a
// well-formed subsonic-response (HTTP 200, or 429 when busy) or the bytes of a library file;
// never a fault, a stack frame or a server path; never a byte of a file outside MEDIA_ROOT; and
// the caller is still signed in afterwards.

const restMethods = await loadRestMethods()

describe(`/rest: hostile input at every OpenSubsonic method (seed ${SEED}, ${RUNS} runs each)`, () => {
  type RestIdentity = { name: string; key: string; username: string; password: string; token: () => string; relogin: () => Promise<void>; ids: RestIds }
  let restIdentities: RestIdentity[]
  /** Text that must never appear in an answer: the contents of files outside MEDIA_ROOT and the server's own paths. */
  let forbidden: string[]
  let outsideName: string
  let fixedValues: string[]

  const b64 = (s: string) => `d${Buffer.from(s).toString('base64url')}`

  beforeAll(async () => {
    const adminToken = await loginAdmin(server.url)
    makeTone(path.join(server.mediaRoot, 'rest-lib/Ada/Dawn/1 First Light.mp3'), {
      artist: 'Ada',
      album: 'Dawn',
      genre: 'Rock',
      title: 'First Light',
      seconds: 1,
      cover: true,
    })
    makeTone(path.join(server.mediaRoot, 'rest-lib/Ada/Dawn/2 Love.mp3'), { artist: 'Ada', album: 'Dawn', genre: 'Rock', title: 'Love', seconds: 1 })
    // A file beside MEDIA_ROOT, as a traversal would reach it, with text no answer may hold.
    const secret = `OUTSIDE-MEDIA-ROOT-${Date.now()}`
    outsideName = `outside-${Date.now()}.mp3`
    writeFileSync(path.join(path.dirname(server.mediaRoot), outsideName), secret)
    forbidden = [secret, 'root:x:0:0', server.mediaRoot, server.dataDir, path.resolve(import.meta.dir, '../..')]
    await scanLibraryNow(server.url, adminToken)

    const restIdentity = async (name: string, password: string, token: string, relogin: () => Promise<string>): Promise<RestIdentity> => {
      const created = await api(server.url, 'POST', '/user/app-keys', { token, body: { name: 'Sweep app', currentPassword: password } })
      expect(created.status).toBe(201)
      const key = created.body.data.key as string
      const username = (await api(server.url, 'GET', '/auth/session', { token })).body.data.user.username as string
      const json = async (method: string, params: RestParams) =>
        JSON.parse((await restCall(server.url, method, { apiKey: key, f: 'json', ...params })).text)['subsonic-response']
      const song = (await json('search3', { query: 'First Light' })).searchResult3.song[0]
      const folder = await api(server.url, 'POST', '/user/folders', { token, body: { label: `${name} rest folder`, path: '/rest-lib' } })
      const list = async () => (await json('createPlaylist', { name: `${name} sweep list`, songId: song.id })).playlist.id as string
      let current = token
      const who: RestIdentity = {
        name,
        key,
        username,
        password,
        token: () => current,
        relogin: async () => {
          current = await relogin()
        },
        ids: {
          songId: song.id,
          albumId: song.albumId,
          artistId: song.artistId,
          artistName: 'Ada',
          genre: 'Rock',
          username,
          playlistId: await list(),
          scratchPlaylistId: await list(),
          folderId: folder.body.data.id as string,
        },
      }
      return who
    }
    const m = await createMember(server.url)
    restIdentities = [
      await restIdentity(
        'member',
        m.password,
        m.token,
        async () => (await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })).body.data.token,
      ),
      await restIdentity('admin', ADMIN.password, adminToken, () => loginAdmin(server.url)),
    ]
    fixedValues = [
      ...ODD_STRINGS,
      '/etc/passwd',
      path.join(server.mediaRoot, '..', outsideName),
      `../${outsideName}`,
      `rest-lib/../../${outsideName}`,
      b64('../..'),
      b64('/etc'),
      b64(`../${outsideName}`),
      b64('rest-lib/../..'),
      'http://127.0.0.1:9/x.mp3',
      'http://localhost/',
      '-9007199254740993',
      '9'.repeat(400),
      '1.5',
      '0x10',
      ' 1',
    ]
  })

  const HOSTILE_REST_KEYS = [
    'id',
    'playlistId',
    'songId',
    'songIdToAdd',
    'songIndexToRemove',
    'current',
    'position',
    'size',
    'offset',
    'count',
    'format',
    'maxBitRate',
    'timeOffset',
    'estimateContentLength',
    'musicFolderId',
    'type',
    'username',
    'query',
    'time',
    'submission',
    'name',
    'comment',
    'public',
    'albumId',
    'artistId',
    'genre',
    'fromYear',
    'toYear',
    'f',
    'v',
    'c',
    'u',
    'p',
    't',
    's',
    'apiKey',
    'callback',
    ...HOSTILE_KEYS,
  ]
  const FORMATS = ['xml', 'json', 'jsonp', '', 'JSON', 'xml\u0000']
  const CALLBACKS = ['alert(1)//', '</script><script>alert(1)</script>', 'a'.repeat(5000), '\u2028', 'x"onload="y', 'constructor']

  type RestCase = { post: boolean; format: string; callback: string | null; keepSample: boolean; extra: Array<[string, string]> }

  /** The credentials, the format, the sample's parameters (or not) and the hostile ones, in order: repeated keys stay repeated. */
  function restCaseParams(who: RestIdentity, method: string, c: RestCase): Array<[string, string]> {
    const sample = Object.entries(restSample(method, who.ids)).flatMap(([k, v]) => [v].flat().map((one) => [k, one] as [string, string]))
    const auth: Array<[string, string]> = [['apiKey', who.key]]
    const format: Array<[string, string]> = c.format ? [['f', c.format]] : []
    const callback: Array<[string, string]> = c.callback === null ? [] : [['callback', c.callback]]
    // A hostile value for a credential would be a credential failure, not a test of the method.
    const extra = c.extra.filter(([k]) => !['apiKey', 'u', 'p', 't', 's'].includes(k))
    return [...auth, ...format, ...callback, ...(c.keepSample ? sample : []), ...extra]
  }

  async function sendRest(method: string, pairs: Array<[string, string]>, post: boolean) {
    // (A lone surrogate has no UTF-8 form: URLSearchParams writes U+FFFD, as a client would.)
    const query = new URLSearchParams(pairs).toString()
    // A query string past Bun's limit gets its bare 431 before any handler: sent as a form instead.
    if (post || query.length > 8000)
      return send(`${server.url}/rest/${method}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: query })
    return send(`${server.url}/rest/${method}.view?${query}`, {})
  }

  function restProblem(res: { status: number; text: string; contentType: string }, c: RestCase): string | null {
    if (res.status >= 500) return `server fault ${res.status}`
    const leak = leakIn(res.text)
    if (leak) return `answer leaks ${leak}`
    const found = forbidden.find((f) => res.text.includes(f))
    if (found) return `answer holds "${found.slice(0, 60)}" (a file outside MEDIA_ROOT or a server path)`
    if (c.callback && res.text.startsWith(c.callback)) return 'answer starts with the caller’s callback'
    if (/javascript/.test(res.contentType)) return `answer is script (${res.contentType})`
    if (/^(audio|image|video)\//.test(res.contentType)) return res.status === 200 || res.status === 206 ? null : `media answer with ${res.status}`
    const envelope = envelopeOf(res.text, res.contentType)
    if (!envelope) return `not a subsonic-response (${res.contentType})`
    // 200 as Subsonic answers; 429 when busy or rate limited and 413 for a form over the body limit keep their HTTP status.
    if (![200, 413, 429].includes(res.status)) return `subsonic-response with HTTP ${res.status}`
    return null
  }

  const plain = (who: RestIdentity, method: string): RestCase[] =>
    [...new Set(['id', ...Object.keys(restSample(method, who.ids))])].flatMap((key) =>
      fixedValues.map((v, i) => ({
        post: i % 2 === 1,
        format: ['xml', 'json', 'jsonp'][i % 3],
        callback: i % 3 === 2 ? CALLBACKS[i % CALLBACKS.length] : null,
        keepSample: true,
        extra: [[key, v]] as Array<[string, string]>,
      })),
    )

  const restArbitrary = fc.record({
    post: fc.boolean(),
    format: fc.constantFrom(...FORMATS),
    callback: fc.option(fc.oneof(fc.constantFrom(...CALLBACKS), fc.string({ maxLength: 40 }))),
    keepSample: fc.boolean(),
    extra: fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...HOSTILE_REST_KEYS), fc.string({ maxLength: 8 })),
        fc.oneof({ weight: 12, arbitrary: fc.oneof(smallString, number.map(String), fc.constant('')) }, { weight: 1, arbitrary: fc.constantFrom(...HUGE) }),
      ),
      { maxLength: 6 },
    ),
  })

  for (const name of ['member', 'admin']) {
    test(`/rest as ${name}: no fault, no leak, nothing outside MEDIA_ROOT, still signed in`, async () => {
      const who = restIdentities.find((i) => i.name === name)!
      const problems: string[] = []
      for (const method of restMethods.all) {
        const cases = {
          arbitrary: restArbitrary.map((c) => (!c.post && c.extra.some(([, v]) => v.length > 3000) ? { ...c, post: true } : c)),
          examples: plain(who, method),
        }
        const problem = await check(`${name} /rest/${method}`, cases, true, async (c) => {
          const pairs = restCaseParams(who, method, c)
          const res = await sendRest(method, pairs, c.post)
          const problem = restProblem(res, c)
          return problem && `${problem}: ${c.post ? 'POST' : 'GET'} ${shown(pairs.slice(1))} → ${res.status} ${res.text.slice(0, 300)}`
        })
        if (problem) problems.push(problem)
        // Signed in afterwards, on both doors: the app key still works and so does the web session.
        const ping = await restCall(server.url, 'ping', { apiKey: who.key })
        if (ping.ok !== true) problems.push(`${name} /rest/${method}: the app key no longer works afterwards: ${ping.text.slice(0, 200)}`)
        if ((await api(server.url, 'GET', '/auth/session', { token: who.token() })).status !== 200) {
          problems.push(`${name} /rest/${method}: signed out afterwards`)
          await who.relogin()
        }
      }
      expect(problems).toEqual([])
    }, 600_000)
  }

  test('hostile credentials (apiKey, u, p, t and s): a credential error, never a fault or an answer', async () => {
    const who = restIdentities[0]
    // A third of the odd strings: each wrong password costs a real password check.
    const values = [
      ...ODD_STRINGS.filter((_, i) => i % 3 === 0),
      'x'.repeat(70_000),
      'enc:zz',
      'enc:0',
      'enc:',
      `enc:${'00'.repeat(500)}`,
      who.username,
      ` ${who.username}`,
      `${who.key}\u0000`,
      who.key.toUpperCase(),
    ]
    // Only the right key alone, or the right username and password, sign in (the first of repeated parameters counts).
    const signsIn = (pairs: Array<[string, string]>) => {
      const first = (k: string) => pairs.find(([key]) => key === k)?.[1]
      if (first('apiKey') !== undefined) return first('apiKey') === who.key && first('u') === undefined
      return first('u') === who.username && first('p') === who.password
    }
    const problems: string[] = []
    for (let i = 0; i < values.length; i++) {
      const v = values[i]
      const variants: Array<Array<[string, string]>> = [
        [['apiKey', v]],
        [
          ['u', v],
          ['p', who.password],
        ],
        [
          ['u', who.username],
          ['p', v],
        ],
        [
          ['u', who.username],
          ['t', v],
          ['s', v],
        ],
        [
          ['apiKey', who.key],
          ['apiKey', v],
        ],
      ]
      for (const pairs of variants) {
        const format = ['xml', 'json'][i % 2]
        const res = await sendRest('getPlaylists', [...pairs, ['f', format]], i % 3 === 0)
        const envelope = envelopeOf(res.text, res.contentType)
        const problem = restProblem(res, { post: false, format, callback: null, keepSample: false, extra: [] })
        if (problem) problems.push(`${shown(pairs)}: ${problem}`)
        else if (envelope?.ok !== signsIn(pairs))
          problems.push(`${shown(pairs)}: expected ${signsIn(pairs) ? 'ok' : 'a credential error'}, got ${res.text.slice(0, 200)}`)
      }
    }
    expect(problems).toEqual([])
  }, 120_000)

  test('a form POST over the 1 MB body limit is a subsonic-response too: error 0 with HTTP 413, in the format asked for', async () => {
    const who = restIdentities[0]
    for (const f of ['xml', 'json']) {
      const body = new URLSearchParams([
        ['apiKey', who.key],
        ['name', 'é'.repeat(300_000)],
      ]).toString()
      const res = await send(`${server.url}/rest/createPlaylist?f=${f}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
      expect({ status: res.status, envelope: envelopeOf(res.text, res.contentType) }).toEqual({
        status: 413,
        envelope: { ok: false, code: 0, message: 'Request body too large' },
      })
      expect(res.contentType).toContain(f)
    }
  })

  test('stream, download and getCoverArt serve library files (and followed podcasts) only: traversal, absolute and unknown ids are not found', async () => {
    const who = restIdentities[0]
    const ids = [
      '../../etc/passwd',
      '/etc/passwd',
      `../${outsideName}`,
      path.join(server.mediaRoot, '..', outsideName),
      b64(`../${outsideName}`),
      b64('../..'),
      b64('/etc'),
      `rest-lib/../../${outsideName}`,
      '%2e%2e%2fetc%2fpasswd',
      // A podcast channel's id shape (getCoverArt gives followed channels' artwork): unknown here.
      'pc-0123456789abcdef',
      'pc-../../etc/passwd',
    ]
    for (const method of ['stream', 'download', 'getCoverArt']) {
      for (const id of ids) {
        const a = await restCall(server.url, method, { apiKey: who.key, id })
        expect({ method, id, ok: a.ok, code: a.code }).toEqual({ method, id, ok: false, code: 70 })
      }
    }
  })

  test('afterwards the server is healthy and recorded no server error', async () => {
    expect((await api(server.url, 'GET', '/health')).status).toBe(200)
    expect(await sqlOn(server, 'SELECT method, path, message FROM server_errors')).toEqual([])
    expect(server.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([])
  })
})
