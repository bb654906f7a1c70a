import SocloadDatabase

extension Database {
    /// Runs `body` with `secure_delete` off, then puts it back as it was. Debian builds SQLite
    /// with it on, so dropping a table writes zeros over every page it frees — as much writing
    /// as the table itself. socload turns it off only to drop a copy of a table it is replacing
    /// (or the copy it kept for the change log): that copy's pages are free for the new one,
    /// which overwrites them.
    func withoutSecureDelete<T>(_ body: () throws -> T) throws -> T {
        let previous = try fetchValue(sql: "PRAGMA secure_delete")
        try execute(sql: "PRAGMA secure_delete = OFF")
        defer {
            if case .integer(let value)? = previous { try? execute(sql: "PRAGMA secure_delete = \(value)") }
        }
        return try body()
    }
}
