import SocloadCore

/// An existing table may serve as a lookup only when it has a lookup's shape: an integer `id`
/// that is the primary key and gets its value by itself (identity or a sequence default), the
/// value columns, unique together (NULLs not distinct for several), and no other column a new
/// row must fill. Anything else is refused before anything is written.
struct PostgreSQLLookupShape {
    let transaction: PostgreSQLLoadTransaction

    /// Throws `LoadError.unsupported` naming what does not fit.
    func check(_ lookup: PlanLookup, relation: String, counts: [String]) throws {
        func refuse(_ reason: String) -> LoadError {
            .unsupported("\(lookup.table) exists and is not a lookup of \(lookup.valueColumns.joined(separator: ", ")): \(reason); "
                         + "a lookup table has an integer id key that numbers itself and the value columns, unique together "
                         + "(name the lookup otherwise: --into)")
        }
        // name, type, identity, default, not null
        let columns = try transaction.execute("""
            SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attidentity::text,
                   pg_get_expr(d.adbin, d.adrelid), a.attnotnull::text
            FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
            """, [relation]).rows
        guard let id = columns.first(where: { $0[0] == PlanLookup.keyColumn }) else {
            throw refuse("it has no column \(PlanLookup.keyColumn)")
        }
        let type = id[1] ?? ""
        guard ["bigint", "integer", "smallint"].contains(type) else { throw refuse("its \(PlanLookup.keyColumn) is \(type), not an integer") }
        guard (id[2] ?? "") != "" || (id[3] ?? "").hasPrefix("nextval(") else {
            throw refuse("its \(PlanLookup.keyColumn) has no identity or sequence default, so new values would get no id")
        }
        let primaryKey = try transaction.execute("""
            SELECT array_agg(a.attname::text ORDER BY a.attname)::text FROM pg_index i
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
            WHERE i.indrelid = to_regclass($1) AND i.indisprimary
            """, [relation]).rows.first?[0] ?? nil
        guard primaryKey == "{\(PlanLookup.keyColumn)}" else { throw refuse("its primary key is not \(PlanLookup.keyColumn) alone") }
        let names = Set(columns.compactMap { $0[0] })
        for column in lookup.valueColumns where !names.contains(column) { throw refuse("it has no column \(column)") }
        let known = Set([PlanLookup.keyColumn] + lookup.valueColumns + counts)
        if let required = columns.first(where: { !known.contains($0[0] ?? "") && $0[4] == "true" && $0[3] == nil && ($0[2] ?? "") == "" }) {
            throw refuse("its column \(required[0] ?? "") is NOT NULL without a default, so no value could be added")
        }
        // A unique index over exactly the value columns (NULLs not distinct when there are several).
        let wanted = "[" + lookup.valueColumns.map(JSONValue.quoted).joined(separator: ",") + "]"
        let unique = try transaction.execute("""
            SELECT i.indnullsnotdistinct::text FROM pg_index i
            WHERE i.indrelid = to_regclass($1) AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
              AND i.indnatts = $2::int
              AND (SELECT array_agg(a.attname::text ORDER BY a.attname::text) FROM pg_attribute a
                   WHERE a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey))
                = (SELECT array_agg(v ORDER BY v) FROM jsonb_array_elements_text($3::jsonb) AS v)
            """, [relation, String(lookup.valueColumns.count), wanted]).rows
        let fits = unique.contains { lookup.valueColumns.count == 1 || $0[0] == "true" }
        guard fits else {
            throw refuse("no unique constraint over \(lookup.valueColumns.joined(separator: ", ")) alone"
                         + (lookup.valueColumns.count > 1 ? " with NULLS NOT DISTINCT" : ""))
        }
    }
}
