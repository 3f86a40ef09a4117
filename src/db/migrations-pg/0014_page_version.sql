-- Hand-written, PostgreSQL only (no SQLite table: one process keeps its page version in memory).
-- The version of every node's page caches (src/server/http/page-version.ts, docs/decisions/089):
-- each API write, once answered, advances it; a cached page rendered under an older value is stale.
CREATE SEQUENCE IF NOT EXISTS "page_version";
