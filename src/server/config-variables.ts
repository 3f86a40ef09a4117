// Every configuration variable with its default and meaning, for `--help` and the README. Kept
// apart from config.ts because loading config.ts parses the environment and creates DATA_DIR,
// which `--help` must not do. config.ts's schema names the same variables (a unit test checks).
export const CONFIG_VARIABLES = [
  ['PORT', '3000', 'port to listen on (0 picks a free one)'],
  ['HOST', '0.0.0.0', 'address to listen on'],
  ['DATA_DIR', './data', 'SQLite database, generated secret, mail outbox (kept private: 0700)'],
  ['MEDIA_ROOT', './media', 'server-side music library; folder paths are relative to it'],
  ['APP_URL', 'http://localhost:$PORT', 'public origin, used in e-mailed links; https turns on HSTS'],
  ['AUTH_SECRET', 'generated into DATA_DIR', 'signs tokens and media URLs (32+ characters)'],
  ['ADMIN_EMAIL', 'none', 'at start-up, create this admin if no user has that e-mail'],
  ['ADMIN_PASSWORD', 'none', "that admin's password (6+ characters)"],
  ['SMTP_URL', 'none', 'smtp(s):// URL; without it mail is written to DATA_DIR/outbox/'],
  ['MAIL_FROM', 'Vibes <no-reply@vibes.local>', 'sender of outgoing mail'],
  ['REMOTE_ALLOW_HOSTS', 'empty', 'comma list of hosts/IPs remote folders may reach even if private'],
  ['REMOTE_ALLOW_PRIVATE', 'false', 'let remote folder URLs reach private networks (a NAS on the LAN)'],
  ['CHARTS_SOURCE_URL', 'none', 'upstream chart feed URL template containing {region}'],
  ['RATE_LIMIT', 'on', 'off disables rate limiting'],
  ['TRUST_PROXY', 'false', 'false | true (one proxy) | number of proxy hops | comma list of proxy addresses/CIDRs'],
  ['DEFAULT_COUNTRY', 'none', 'ISO 3166 country for plays from private or unknown addresses'],
  ['SHUTDOWN_GRACE_SECONDS', '10', 'after SIGTERM, how long in-flight requests may finish'],
  ['FFMPEG_PATH', 'ffmpeg on PATH', 'ffmpeg used to convert formats browsers cannot play'],
  ['LOG_LEVEL', 'info', 'fatal | error | warn | info | debug | trace | silent'],
] as const
