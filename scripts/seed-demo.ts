// `bun run seed:demo -- --users N --events N --days N`: fills the DATA_DIR database with a
// believable busy instance, so the admin console, the analytics benchmark and screenshots have
// real-looking data to show. Members with their folders, logins and sign-up
// dates; listening sessions whose plays follow an evening peak and a weekend lift, with genres,
// devices, networks, sources, places, completions, skips, buffering, likes, shares and repeats;
// interactions and likes; page hits with daily visitor hashes; contact messages.
//
// Fast because it is one transaction of prepared inserts, with plays generated in time order (as
// the server writes them), and the analytics roll-ups rebuilt once at the end instead of by the
// per-row triggers (bulkLoadPlays), in the same transaction. Every member's password is `demo-password`.
// Random but repeatable: `--seed N` (default 1) picks the sequence.
import { config } from '~/server/config'
import { openDb } from '~/db/client'
import { bulkLoadPlays } from '~/server/services/rollups'

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  if (i < 0) return fallback
  const n = Number(process.argv[i + 1])
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} needs a whole number, got ${process.argv[i + 1] ?? 'nothing'}`)
    process.exit(2)
  }
  return n
}

const USERS = Math.max(1, option('users', 1_000))
const EVENTS = option('events', 100_000)
const DAYS = Math.max(1, option('days', 90))
let state = option('seed', 1) || 1

/** mulberry32: a small repeatable generator (Math.random cannot be seeded). */
function random(): number {
  state = (state + 0x6d2b79f5) | 0
  let t = Math.imul(state ^ (state >>> 15), 1 | state)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}
const int = (n: number) => Math.floor(random() * n)
const pick = <T>(list: readonly T[]): T => list[int(list.length)]
/** Few items get most of the weight (popular tracks, busy members). */
const skewed = (n: number) => Math.floor(random() ** 3 * n)
const hex8 = () => int(0x1_0000_0000).toString(16).padStart(8, '0')
const uuid = () => {
  const h = hex8() + hex8() + hex8() + hex8()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** A UUID (version 7 layout) that starts with the moment, so plays written in time order append to the primary key index. */
const timedId = (at: number) => {
  const t = Math.floor(at).toString(16).padStart(12, '0')
  const r = hex8() + hex8() + hex8()
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${r.slice(0, 3)}-a${r.slice(3, 6)}-${r.slice(6, 18)}`
}

const GENRES = ['Jazz', 'Rock', 'Pop', 'Hip-Hop', 'Classical', 'Electronic', 'Folk', 'Blues', 'Soul', 'Metal', 'Reggae', 'Ambient'] as const
const DEVICES = ['desktop', 'mobile', 'mobile', 'tablet', 'smart-tv', 'speaker'] as const
const NETWORKS = ['wifi', 'wifi', 'ethernet', '4g', '3g', 'unknown'] as const
const SOURCES = ['direct', 'playlist', 'playlist', 'shuffle', 'repeat'] as const
const PLACES = [
  ['US', 'California', 'Los Angeles'],
  ['US', 'New York', 'New York'],
  ['US', 'Texas', 'Austin'],
  ['GB', 'England', 'London'],
  ['DE', 'Berlin', 'Berlin'],
  ['FR', 'Ile-de-France', 'Paris'],
  ['JP', 'Tokyo', 'Tokyo'],
  ['CY', 'Nicosia', 'Nicosia'],
  ['CY', 'Limassol', 'Limassol'],
  ['GR', 'Attica', 'Athens'],
  ['CA', 'Ontario', 'Toronto'],
  ['AU', 'New South Wales', 'Sydney'],
  ['BR', 'Sao Paulo', 'Sao Paulo'],
  ['IN', 'Karnataka', 'Bengaluru'],
  ['NL', null, null],
  [null, null, null],
] as const
/** Relative plays per UTC hour: quiet nights, a lunch bump, an evening peak. */
const HOUR_WEIGHT = [2, 1, 1, 1, 1, 1, 2, 4, 5, 5, 5, 6, 7, 6, 5, 5, 6, 8, 10, 12, 12, 10, 7, 4]
/** Relative plays per weekday (Sunday first): weekends are busier. */
const WEEKDAY_WEIGHT = [1.3, 0.9, 0.9, 0.95, 1, 1.1, 1.35]
const TRACKS = 6_000
const ARTISTS = 600
const FIRST = ['Blue', 'Late', 'Golden', 'Quiet', 'Electric', 'Paper', 'Silver', 'Midnight', 'Wild', 'Lost']
const SECOND = ['Harbour', 'Lights', 'River', 'Echoes', 'Garden', 'Engines', 'Waves', 'Streets', 'Hours', 'Letters']
const track = (t: number) => {
  const artist = t % ARTISTS
  return {
    title: `${FIRST[t % 10]} ${SECOND[Math.floor(t / 10) % 10]} ${Math.floor(t / 100) + 1}`,
    artist: `${FIRST[artist % 10]} ${SECOND[(artist * 7) % 10]} Band ${artist}`,
    album: `Album ${Math.floor(t / 12)}`,
    genre: artist % 17 === 0 ? null : GENRES[artist % GENRES.length],
    duration: 120 + ((t * 37) % 300),
    // Half the catalogue is the server library (signed URLs, re-signed every hour), half a NAS listing.
    url: (at: number) =>
      t % 2
        ? `/media/library/${artist}/${t}.mp3?exp=${Math.floor(at / HOUR_MS) * 3600 + 86_400}&sig=${(at % 99_991).toString(36)}`
        : `https://nas.example.com/music/${artist}/${t}.mp3`,
  }
}

/** Cumulative weights → an index drawn in proportion. */
function drawer(weights: number[]) {
  const cumulative: number[] = []
  let sum = 0
  for (const w of weights) cumulative.push((sum += w))
  return () => {
    const x = random() * sum
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid] > x) hi = mid
      else lo = mid + 1
    }
    return lo
  }
}

const t0 = performance.now()
const db = openDb(config.dbFile, config.migrationsDir)
const sqlite = db.$client
// A large page cache: the play_events indexes outgrow the default 2 MB within seconds.
sqlite.exec('PRAGMA cache_size = -262144')
const now = Date.now()
const start = now - DAYS * DAY_MS
const passwordHash = await Bun.password.hash('demo-password')

// Play moments: each day weighted by its weekday (and a slow growth), each hour by the rhythm.
const dayStart0 = Math.floor(start / DAY_MS) * DAY_MS
const dayCount = Math.ceil((now - dayStart0) / DAY_MS)
const drawDay = drawer(Array.from({ length: dayCount }, (_, d) => WEEKDAY_WEIGHT[new Date(dayStart0 + d * DAY_MS).getUTCDay()] * (0.7 + (0.3 * d) / dayCount)))
const drawHour = drawer(HOUR_WEIGHT)
const moments = new Float64Array(EVENTS)
for (let i = 0; i < EVENTS; i++) {
  let at: number
  do at = dayStart0 + drawDay() * DAY_MS + drawHour() * HOUR_MS + int(HOUR_MS)
  while (at < start || at > now)
  moments[i] = at
}
moments.sort()

type Member = { id: string; createdAt: number; place: readonly (string | null)[]; devices: string[]; folders: string[]; lastLogin: number }
const members: Member[] = []
const counts = { users: 0, folders: 0, logins: 0, plays: 0, interactions: 0, likes: 0, hits: 0, messages: 0 }

bulkLoadPlays(sqlite, () => {
  const taken = sqlite.query('SELECT count(*) AS n FROM users').get() as { n: number }
  const addUser = sqlite.prepare('INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES (?, ?, ?, ?, 0, ?)')
  const addFolder = sqlite.prepare('INSERT INTO folders (id, user_id, label, path, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
  for (let i = 0; i < USERS; i++) {
    const n = taken.n + i
    // Sign-ups: most before the period, a steady trickle during it.
    const createdAt = random() < 0.7 ? start - int(365 * DAY_MS) : start + int(now - start)
    const member: Member = {
      id: uuid(),
      createdAt,
      place: pick(PLACES),
      devices: [pick(DEVICES), pick(DEVICES)],
      folders: [],
      lastLogin: 0,
    }
    addUser.run(member.id, `listener${n}`, `listener${n}@demo.vibes.test`, passwordHash, createdAt)
    for (let f = 0; f < int(4); f++) {
      const id = uuid()
      const genre = pick(GENRES)
      const path = random() < 0.6 ? `/${genre.toLowerCase()}/${f + 1}` : `https://nas.example.com/music/${genre.toLowerCase()}-${f + 1}/`
      addFolder.run(id, member.id, `${genre} ${f + 1}`, path, f, createdAt, createdAt)
      member.folders.push(id)
      counts.folders++
    }
    members.push(member)
    counts.users++
  }

  const addLogin = sqlite.prepare('INSERT INTO logins (user_id, created_at) VALUES (?, ?)')
  const addPlay = sqlite.prepare(
    `INSERT INTO play_events (id, user_id, track_url, title, artist, album, genre, duration, device_type, source, playlist_id, session_id,
       session_position, network_type, country, region, city, listen_duration, completed, skipped, skip_time, liked, shared, repeated,
       buffer_count, quality_drops, started_at, updated_at, ended_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const addInteraction = sqlite.prepare('INSERT INTO interactions (id, user_id, track_id, interaction_type, timestamp, created_at) VALUES (?, ?, ?, ?, ?, ?)')
  const addLike = sqlite.prepare(
    'INSERT INTO likes (user_id, track_key, track_url, liked, updated_at) VALUES (?, ?, ?, 1, ?) ON CONFLICT (user_id, track_key) DO UPDATE SET updated_at = excluded.updated_at',
  )
  // Listening sessions: as many run at once as give each a play about every 5 minutes; each is one
  // member on one device playing 1–20 tracks in a row (often from one of their folders), ending
  // early after 45 quiet minutes.
  type Session = { member: Member; id: string; position: number; left: number; last: number; device: string; folder: string | null; taste: number }
  const active: (Session | undefined)[] = Array.from({ length: Math.max(1, Math.round(EVENTS / DAYS / 24 / 12)) })
  for (let i = 0; i < EVENTS; i++) {
    const at = moments[i]
    const slot = int(active.length)
    let session = active[slot]
    if (!session || session.left === 0 || at - session.last > 45 * 60_000) {
      let member = members[skewed(members.length)]
      if (member.createdAt > at) member = members[int(members.length)]
      session = {
        member,
        id: `session_${at}_${uuid().slice(0, 9)}`,
        position: 0,
        left: 1 + int(20),
        last: at,
        device: pick(member.devices),
        folder: member.folders.length && random() < 0.6 ? pick(member.folders) : null,
        taste: int(TRACKS),
      }
      active[slot] = session
      if (at - member.lastLogin > DAY_MS && random() < 0.5) {
        addLogin.run(member.id, at - int(60_000))
        member.lastLogin = at
        counts.logins++
      }
    }
    const member = session.member
    session.left--
    session.last = at
    const t = random() < 0.5 ? (session.taste + int(40)) % TRACKS : skewed(TRACKS)
    const info = track(t)
    const completed = random() < 0.62
    const skipped = !completed && random() < 0.6
    const listen = completed ? info.duration : Math.round(random() * info.duration * 10) / 10
    const liked = random() < 0.06
    const shared = random() < 0.012
    const repeated = random() < 0.03
    const buffers = random() < 0.08 ? 1 + int(4) : 0
    const place = random() < 0.9 ? member.place : pick(PLACES)
    const id = timedId(at)
    const url = info.url(at)
    addPlay.run(
      id,
      member.id,
      url,
      info.title,
      info.artist,
      info.album,
      info.genre,
      info.duration,
      session.device,
      session.folder ? pick(SOURCES) : 'direct',
      session.folder,
      session.id,
      session.position++,
      pick(NETWORKS),
      place[0],
      place[1],
      place[2],
      listen,
      completed ? 1 : 0,
      skipped ? 1 : 0,
      skipped ? listen : null,
      liked ? 1 : 0,
      shared ? 1 : 0,
      repeated ? 1 : 0,
      buffers,
      buffers && random() < 0.4 ? 1 : 0,
      at,
      at,
      Math.min(now, at + listen * 1000),
    )
    counts.plays++
    for (const [flag, type] of [
      [liked, 'like'],
      [shared, 'share'],
      [repeated, 'repeat'],
    ] as const) {
      if (!flag) continue
      addInteraction.run(timedId(at), member.id, url, type, at, at)
      counts.interactions++
    }
    if (liked) {
      addLike.run(member.id, info.title, url, at)
      counts.likes++
    }
  }

  // Page hits: roughly one visit of a few pages per three plays, hashed per visitor and day.
  const PAGES = ['home', 'home', 'home', 'charts', 'about', 'contact', 'player', 'folders', 'library', 'login', 'register']
  const addHit = sqlite.prepare('INSERT INTO page_hits (page, visitor_hash, created_at) VALUES (?, ?, ?)')
  const perPage = new Map<string, { hits: number; visitors: Set<string> }>()
  const hits = Math.floor(EVENTS / 3)
  for (let i = 0; i < hits; i++) {
    const at = moments[Math.floor((i / Math.max(1, hits)) * EVENTS)] ?? now
    const page = pick(PAGES)
    const visitor = `${Math.floor(at / DAY_MS).toString(36)}-${skewed(USERS * 3).toString(36)}`
    addHit.run(page, visitor, at)
    const entry = perPage.get(page) ?? { hits: 0, visitors: new Set<string>() }
    entry.hits++
    entry.visitors.add(visitor)
    perPage.set(page, entry)
    counts.hits++
  }
  const addCount = sqlite.prepare(
    'INSERT INTO page_hit_counts (page, hits, unique_visitors) VALUES (?, ?, ?) ON CONFLICT (page) DO UPDATE SET hits = hits + excluded.hits, unique_visitors = unique_visitors + excluded.unique_visitors',
  )
  for (const [page, entry] of perPage) addCount.run(page, entry.hits, entry.visitors.size)

  const addMessage = sqlite.prepare(
    'INSERT INTO contact_messages (id, name, email, subject, message, read, important, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const topics = ['Love the jazz folder', 'A track will not play', 'Can you add FLAC support?', 'Charts look empty for my country', 'Thanks for the server!']
  for (let i = 0; i < Math.min(200, Math.max(5, Math.floor(USERS / 50))); i++) {
    const topic = pick(topics)
    const at = start + int(now - start)
    addMessage.run(
      uuid(),
      `Listener ${i}`,
      `listener${i}@demo.vibes.test`,
      topic,
      `${topic}. Sent from the demo seed.`,
      random() < 0.6 ? 1 : 0,
      random() < 0.15 ? 1 : 0,
      at,
    )
    counts.messages++
  }
})
sqlite.exec('PRAGMA optimize')
sqlite.close()
console.log(
  `seeded ${config.dbFile}: ${Object.entries(counts)
    .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
    .join(', ')} over ${DAYS} days in ${((performance.now() - t0) / 1000).toFixed(1)} s (password of every member: demo-password)`,
)
