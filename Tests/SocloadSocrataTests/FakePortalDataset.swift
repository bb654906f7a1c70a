import SocloadTestSupport

/// The dataset the fake portal serves in the live-portal tests: 23 rows, so pages of 5 end short.
enum FakePortalDataset {
    static let id = "fake-0001"
    static let start = 1_420_070_400 // 2015-01-01T00:00:00Z

    static let columns: [FakeSocrataPortal.Column] = [
        .init("name", "text"), .init("category", "text"), .init("amount", "number"), .init("active", "checkbox"),
        .init("opened", "calendar_date"), .init("closed_at", "date"), .init("site", "location"),
        .init("website", "url"), .init("spot", "point"),
    ]

    static func row(_ index: Int) -> FakeSocrataPortal.Row {
        var cells: [String: FakeSocrataPortal.Cell] = [
            "name": .text(index == 4 ? "A&B = C+D's café" : "Name \(index) é"),
            "category": .text(["parks", "roads", "schools"][index % 3]),
            "amount": .number(index % 4 == 0 ? "\(index * 100)" : "\(index).25"),
            "active": .checkbox(index % 2 == 0),
            "opened": .calendarDate("2015-02-\(10 + index % 18)T00:00:00"),
            "website": .url("https://example.org/\(index)", description: index % 3 == 0 ? nil : "Site \(index)"),
        ]
        if index % 5 != 0 {
            cells["closed_at"] = .timestamp(start + index * 86_400)
            cells["site"] = .location(address: "{\"address\": \"\(index) Main St\", \"city\": \"Seattle\"}",
                                      latitude: "47.\(600 + index)", longitude: "-122.\(300 + index)")
            cells["spot"] = .point(longitude: "-122.\(300 + index)", latitude: "47.\(600 + index)")
        }
        return .init(id: "row-\(String(format: "%04d", index))_abcd.efgh", createdAt: start + index * 3_600,
                     updatedAt: start + index * 3_600 + 60, cells: cells)
    }

    static func makePortal() throws -> FakeSocrataPortal {
        try FakeSocrataPortal(datasetID: id, columns: columns, rows: (1...23).map(row), rowsUpdatedAt: start + 90 * 86_400)
    }
}
