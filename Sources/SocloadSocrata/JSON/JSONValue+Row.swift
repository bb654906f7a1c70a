import SocloadCore

extension JSONValue {
    /// Parses one complete JSON value (nesting up to 512 levels, valid UTF-8). A failure is
    /// `RowsJSONError.badRow`, described as a row's would be: `row` and `offset` say where.
    public init(parsingRow bytes: [UInt8], row: Int, offset: Int) throws {
        do {
            self = try JSONValueParser.parse(bytes)
        } catch {
            throw RowsJSONError.badRow(row: row, offset: offset, detail: error.description(base: offset))
        }
    }
}
