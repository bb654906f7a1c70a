import SocloadCore

/// How PostgreSQL spells the plan's logical types.
public enum PostgreSQLTypes {
    /// The column type for a logical type: exact decimals stay `numeric`, fixed timestamps are
    /// `timestamptz`, floating ones `timestamp`, JSON is `jsonb`; geometry stays text (WKT or
    /// GeoJSON), with a PostGIS column beside it where the database has PostGIS.
    public static func declaredType(_ type: LogicalType) -> String {
        switch type {
        case .text, .geometry: return "text"
        case .integer: return "bigint"
        case .decimal: return "numeric"
        case .double: return "double precision"
        case .boolean: return "boolean"
        case .timestamp: return "timestamptz"
        case .floatingTimestamp: return "timestamp"
        case .date: return "date"
        case .json: return "jsonb"
        }
    }

    /// `"schema"."name"`: a relation of a schema, both quoted.
    /// The longest name PostgreSQL keeps, in UTF-8 bytes (NAMEDATALEN - 1).
    static let maximumNameBytes = 63

    /// A name longer than PostgreSQL's 63 bytes is the shortened one the load gave the table
    /// (`LoadPlan.shortenedName`), so the name the user gave works in every command.
    public static func qualified(_ name: String, schema: String) -> String {
        schema.quotedDatabaseIdentifier + "." + LoadPlan.shortenedName(name, toBytes: maximumNameBytes).quotedDatabaseIdentifier
    }

    /// What PostgreSQL cannot store that SQLite can: the converter treats such cells as not of
    /// their column's type (NULL, counted; or a failure with `--strict`).
    public static let storableValues = StorableValues(
        destinationName: "PostgreSQL", allowsNULInText: false,
        // timestamptz runs from 4713-11-24 BC to 294276 AD.
        timestampSeconds: -210_866_803_200 ..< 9_224_318_016_000,
        // numeric holds up to 131072 digits before the point and 16383 after it.
        decimalIntegerDigits: 131_072, decimalFractionDigits: 16_383)
}
