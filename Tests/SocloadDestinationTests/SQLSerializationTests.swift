import SocloadCore
import SocloadDatabase
import SocloadPostgreSQL
import SocloadTestSupport
import XCTest

/// The SQL SQLite's and PostgreSQL's dialects write for lookups, glue, key sets, history, row
/// changes and selects (`SQLSerialization`), held statement by statement: a change to what a
/// database is sent shows here as text, beside the behaviour tests that run it.
final class SQLSerializationTests: XCTestCase {
    func testSQLiteWritesTheseStatements() throws {
        SQLSerialization.assertSerialization(of: try SQLSerialization.statements(SQLiteDialect()), is: Self.sqlite)
    }

    func testPostgreSQLWritesTheseStatements() throws {
        SQLSerialization.assertSerialization(of: try SQLSerialization.statements(PostgreSQLDialect(schema: "public")),
                                             is: Self.postgreSQL)
    }

    static let sqlite: [(String, String)] = [
        ("lookup insert", #"INSERT INTO "agency" ("agency") SELECT DISTINCT "s"."agency" FROM staged AS "s" WHERE ("s"."agency" IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM "agency" AS "l" WHERE "l"."agency" = "s"."agency") ORDER BY 1"#),
        ("lookup match", #"l."agency" = s."agency""#),
        ("lookup prune", #"DELETE FROM "agency" WHERE NOT EXISTS (SELECT 1 FROM "t" AS "t" WHERE "t"."agency_id" = "agency"."id")"#),
        ("lookup index 0", #"CREATE INDEX IF NOT EXISTS "_socload_fk_t_agency" ON "t" ("agency_id")"#),
        ("lookup recount 0", #"UPDATE "agency" SET "t_count" = 0"#),
        ("lookup recount 1", #"UPDATE "agency" AS "l" SET "t_count" = "g"."n0" FROM (SELECT "agency_id" AS "k", count(*) AS "n0" FROM "t" WHERE "agency_id" IS NOT NULL GROUP BY "agency_id") AS "g" WHERE "l"."id" = "g"."k""#),
        ("lookup recount 2", #"DELETE FROM "agency" WHERE NOT EXISTS (SELECT 1 FROM "t" AS "t" WHERE "t"."agency_id" = "agency"."id")"#),
        ("lookup drift t_count", #"SELECT count(*) FROM "agency" AS "l" WHERE "l"."t_count" <> (SELECT count(*) FROM "t" AS "t" WHERE "t"."agency_id" = "l"."id")"#),
        ("glue create 0", #"CREATE TABLE "t_tags" ("t_id" TEXT NOT NULL, "tag_id" INTEGER NOT NULL, "_t_asserts" INTEGER NOT NULL DEFAULT 0, "_tags_asserts" INTEGER NOT NULL DEFAULT 0, PRIMARY KEY ("t_id", "tag_id"))"#),
        ("glue create 1", #"ALTER TABLE "t_tags" ADD COLUMN "weight" NUMERIC"#),
        ("glue withdraw", #"UPDATE "t_tags" SET "_t_asserts" = 0 WHERE "_t_asserts" <> 0"#),
        ("glue upsert", #"INSERT INTO "t_tags" ("t_id", "tag_id", "weight", "_t_asserts") SELECT * FROM staged ON CONFLICT ("t_id", "tag_id") DO UPDATE SET "weight" = excluded."weight", "_t_asserts" = excluded."_t_asserts""#),
        ("glue remove unasserted", #"DELETE FROM "t_tags" WHERE "_t_asserts" = 0 AND "_tags_asserts" = 0"#),
        ("keys create", #"CREATE TEMPORARY TABLE "_socload_keys" ("_id" TEXT)"#),
        ("keys index", #"CREATE INDEX "_socload_keys_key" ON "_socload_keys" ("_id")"#),
        ("keys missing", #"NOT EXISTS (SELECT 1 FROM "_socload_keys" WHERE "_socload_keys"."_id" = "t"."_id")"#),
        ("keys count", #"SELECT count(*) FROM "t" WHERE NOT EXISTS (SELECT 1 FROM "_socload_keys" WHERE "_socload_keys"."_id" = "t"."_id")"#),
        ("keys delete", #"DELETE FROM "t" WHERE NOT EXISTS (SELECT 1 FROM "_socload_keys" WHERE "_socload_keys"."_id" = "t"."_id")"#),
        ("keys drop", #"DROP TABLE IF EXISTS "_socload_keys""#),
        ("history create 0", #"CREATE TABLE "t_history" ("_id" TEXT, "agency_id" INTEGER, "city" TEXT, "amount" NUMERIC, "when" TEXT, "_valid_from" TEXT NOT NULL, "_valid_to" TEXT)"#),
        ("history create 1", #"CREATE INDEX "_socload_history_key_t" ON "t_history" ("_id", "_valid_to")"#),
        ("history insert all", #"INSERT INTO "t_history" ("_id", "agency_id", "city", "amount", "when", "_valid_from") SELECT "_id", "agency_id", "city", "amount", "when", CAST(CAST(? AS TEXT) AS TEXT) FROM "t""#),
        ("history close", #"UPDATE "t_history" SET "_valid_to" = CAST(CAST(? AS TEXT) AS TEXT) WHERE "t_history"."_valid_to" IS NULL AND ("t_history"."_id") IN (closed)"#),
        ("history versions", #"INSERT INTO "t_history" ("_id", "agency_id", "city", "amount", "when", "_valid_from") SELECT "t"."_id", "t"."agency_id", "t"."city", "t"."amount", "t"."when", CAST(CAST(? AS TEXT) AS TEXT) changed"#),
        ("changes prepare", #"CREATE INDEX "nf_key" ON "nf" ("kh", "h")"#),
        ("changes count", #"SELECT (SELECT count(*) FROM "nf"), (SELECT count(*) FROM "of"), count(*), coalesce(sum(CASE WHEN "n"."h" = "o"."h" THEN 1 ELSE 0 END), 0) FROM "nf" AS "n" JOIN "of" AS "o" ON "n"."kh" = "o"."kh""#),
        ("changes content match", #"SELECT coalesce(sum("g"."m"), 0) FROM (SELECT CASE WHEN sum("u"."s") < count(*) - sum("u"."s") THEN sum("u"."s") ELSE count(*) - sum("u"."s") END AS "m" FROM (SELECT "h", 1 AS "s" FROM (SELECT "n"."h" FROM "nf" AS "n" WHERE NOT EXISTS (SELECT 1 FROM "of" AS "o" WHERE "n"."kh" = "o"."kh")) AS "a" UNION ALL SELECT "h", 0 AS "s" FROM (SELECT "o"."h" FROM "of" AS "o" WHERE NOT EXISTS (SELECT 1 FROM "nf" AS "n" WHERE "n"."kh" = "o"."kh")) AS "b") AS "u" GROUP BY "u"."h") AS "g""#),
        ("changes closed keys", #"SELECT "o"."k1" FROM "of" AS "o" WHERE NOT EXISTS (SELECT 1 FROM "nf" AS "n" WHERE "n"."kh" = "o"."kh" AND "n"."h" = "o"."h")"#),
        ("changes new versions", #"FROM (SELECT "n".* FROM "nf" AS "n" WHERE NOT EXISTS (SELECT 1 FROM "of" AS "o" WHERE "o"."kh" = "n"."kh" AND "o"."h" = "n"."h")) AS "n" JOIN "t" AS "t" ON "t".rowid = "n"."r""#),
        ("select", #"SELECT "city", "amount" FROM "t" WHERE "city" = ? AND "amount" > ? AND "_id" IN (?, ?) ORDER BY "when" NULLS LAST LIMIT ?"#),
        ("json instant", #""t"."at""#),
    ]

    static let postgreSQL: [(String, String)] = [
        ("lookup insert", #"INSERT INTO "public"."agency" ("agency") SELECT DISTINCT "s"."agency" FROM staged AS "s" WHERE ("s"."agency" IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM "public"."agency" AS "l" WHERE "l"."agency" = "s"."agency") ORDER BY 1"#),
        ("lookup match", #"l."agency" = s."agency""#),
        ("lookup prune", #"DELETE FROM "public"."agency" WHERE NOT EXISTS (SELECT 1 FROM "public"."t" AS "t" WHERE "t"."agency_id" = "public"."agency"."id")"#),
        ("lookup index 0", #"CREATE INDEX IF NOT EXISTS "_socload_fk_t_agency" ON "public"."t" ("agency_id")"#),
        ("lookup recount 0", #"UPDATE "public"."agency" SET "t_count" = 0"#),
        ("lookup recount 1", #"UPDATE "public"."agency" AS "l" SET "t_count" = "g"."n0" FROM (SELECT "agency_id" AS "k", count(*) AS "n0" FROM "public"."t" WHERE "agency_id" IS NOT NULL GROUP BY "agency_id") AS "g" WHERE "l"."id" = "g"."k""#),
        ("lookup recount 2", #"DELETE FROM "public"."agency" WHERE NOT EXISTS (SELECT 1 FROM "public"."t" AS "t" WHERE "t"."agency_id" = "public"."agency"."id")"#),
        ("lookup drift t_count", #"SELECT count(*) FROM "public"."agency" AS "l" WHERE "l"."t_count" <> (SELECT count(*) FROM "public"."t" AS "t" WHERE "t"."agency_id" = "l"."id")"#),
        ("glue create 0", #"CREATE TABLE "public"."t_tags" ("t_id" text NOT NULL, "tag_id" bigint NOT NULL, "_t_asserts" smallint NOT NULL DEFAULT 0, "_tags_asserts" smallint NOT NULL DEFAULT 0, PRIMARY KEY ("t_id", "tag_id"))"#),
        ("glue create 1", #"ALTER TABLE "public"."t_tags" ADD COLUMN "weight" numeric"#),
        ("glue withdraw", #"UPDATE "public"."t_tags" SET "_t_asserts" = 0 WHERE "_t_asserts" <> 0"#),
        ("glue upsert", #"INSERT INTO "public"."t_tags" ("t_id", "tag_id", "weight", "_t_asserts") SELECT * FROM staged ON CONFLICT ("t_id", "tag_id") DO UPDATE SET "weight" = excluded."weight", "_t_asserts" = excluded."_t_asserts""#),
        ("glue remove unasserted", #"DELETE FROM "public"."t_tags" WHERE "_t_asserts" = 0 AND "_tags_asserts" = 0"#),
        ("keys create", #"CREATE TEMPORARY TABLE "_socload_keys" ("_id" text)"#),
        ("keys index", #"CREATE INDEX "_socload_keys_key" ON "_socload_keys" ("_id")"#),
        ("keys missing", #"NOT EXISTS (SELECT 1 FROM "_socload_keys" WHERE "_socload_keys"."_id" = "public"."t"."_id")"#),
        ("keys count", #"SELECT count(*) FROM "public"."t" WHERE NOT EXISTS (SELECT 1 FROM "_socload_keys" WHERE "_socload_keys"."_id" = "public"."t"."_id")"#),
        ("keys delete", #"DELETE FROM "public"."t" WHERE NOT EXISTS (SELECT 1 FROM "_socload_keys" WHERE "_socload_keys"."_id" = "public"."t"."_id")"#),
        ("keys drop", #"DROP TABLE IF EXISTS "_socload_keys""#),
        ("history create 0", #"CREATE TABLE "public"."t_history" ("_id" text, "agency_id" bigint, "city" text, "amount" numeric, "when" timestamp, "_valid_from" timestamptz NOT NULL, "_valid_to" timestamptz)"#),
        ("history create 1", #"CREATE INDEX "_socload_history_key_t" ON "public"."t_history" ("_id", "_valid_to")"#),
        ("history insert all", #"INSERT INTO "public"."t_history" ("_id", "agency_id", "city", "amount", "when", "_valid_from") SELECT "_id", "agency_id", "city", "amount", "when", CAST(CAST($1 AS TEXT) AS timestamptz) FROM "public"."t""#),
        ("history close", #"UPDATE "public"."t_history" SET "_valid_to" = CAST(CAST($1 AS TEXT) AS timestamptz) WHERE "public"."t_history"."_valid_to" IS NULL AND ("public"."t_history"."_id") IN (closed)"#),
        ("history versions", #"INSERT INTO "public"."t_history" ("_id", "agency_id", "city", "amount", "when", "_valid_from") SELECT "t"."_id", "t"."agency_id", "t"."city", "t"."amount", "t"."when", CAST(CAST($1 AS TEXT) AS timestamptz) changed"#),
        ("changes prepare", #"ANALYZE "public"."nf""#),
        ("changes count", #"SELECT (SELECT count(*) FROM "public"."nf"), (SELECT count(*) FROM "public"."of"), count(*), coalesce(sum(CASE WHEN "n"."h" = "o"."h" THEN 1 ELSE 0 END), 0) FROM "public"."nf" AS "n" JOIN "public"."of" AS "o" ON "n"."kh" = "o"."kh""#),
        ("changes content match", #"SELECT coalesce(sum("g"."m"), 0) FROM (SELECT CASE WHEN sum("u"."s") < count(*) - sum("u"."s") THEN sum("u"."s") ELSE count(*) - sum("u"."s") END AS "m" FROM (SELECT "h", 1 AS "s" FROM (SELECT "n"."h" FROM "public"."nf" AS "n" WHERE NOT EXISTS (SELECT 1 FROM "public"."of" AS "o" WHERE "n"."kh" = "o"."kh")) AS "a" UNION ALL SELECT "h", 0 AS "s" FROM (SELECT "o"."h" FROM "public"."of" AS "o" WHERE NOT EXISTS (SELECT 1 FROM "public"."nf" AS "n" WHERE "n"."kh" = "o"."kh")) AS "b") AS "u" GROUP BY "u"."h") AS "g""#),
        ("changes closed keys", #"SELECT "o"."k1" FROM "public"."of" AS "o" WHERE NOT EXISTS (SELECT 1 FROM "public"."nf" AS "n" WHERE "n"."kh" = "o"."kh" AND "n"."h" = "o"."h")"#),
        ("changes new versions", #"FROM (SELECT "n".* FROM "public"."nf" AS "n" WHERE NOT EXISTS (SELECT 1 FROM "public"."of" AS "o" WHERE "o"."kh" = "n"."kh" AND "o"."h" = "n"."h")) AS "n" JOIN "public"."t" AS "t" ON "t"."_id" = "n"."k1""#),
        ("select", #"SELECT "city", "amount" FROM "public"."t" WHERE "city" = $1 AND "amount" > $2 AND "_id" IN ($3, $4) ORDER BY "when" NULLS LAST LIMIT $5"#),
        ("json instant", #"regexp_replace(to_jsonb("t"."at") #>> '{}', '\+00:00$', 'Z')"#),
    ]
}
