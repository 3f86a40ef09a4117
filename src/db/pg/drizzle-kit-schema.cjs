// drizzle-kit finds tables among a schema module's top-level exports, and the PostgreSQL tables are
// derived at run time (./schema.ts), so this module hands them over as its exports. Used only by
// drizzle.pg.config.ts (`bun run db:generate:pg`).
module.exports = require('./schema.ts').pgTables
