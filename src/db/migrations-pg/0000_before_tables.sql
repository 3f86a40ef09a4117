-- Hand-written, before the tables (decision 071): what the generated table migrations rely on.
-- SQLite's built-in NOCASE collation has no PostgreSQL counterpart, so one of that name is made:
-- case-blind (ICU strength 2: letters differing only in case compare equal, accents still count).
-- An index or query saying `title COLLATE NOCASE` then reads the same on both engines. Unlike
-- SQLite's (ASCII only), it folds every alphabet's case and orders by Unicode collation rules.
CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
