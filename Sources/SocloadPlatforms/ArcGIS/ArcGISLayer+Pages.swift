import SocloadCore

/// The features of a layer, page after page, as records: the attributes as they came but dates
/// (epoch milliseconds) as ISO-8601 UTC, and the geometry as WKT.
extension ArcGISLayer {
    /// What one query page held.
    struct Page {
        /// The object ids of its features, in order.
        var ids: [Int] = []
        var exceeded = false
    }

    func writeRecords(of description: PlatformDescription, into spool: RecordSpool, limit: Int?,
                      progress: (Int) -> Void) throws -> [String] {
        let infoURL = platformURL(layer, [("f", "json")])
        let info = try layerInfo()
        let paging = paging(of: description, info: info)
        let geometryField = description.fields.last { $0.type == .geometry && $0.platformType.hasPrefix("esriGeometry") }?.field
        var malformed = 0
        guard let key = paging.objectIDField else {
            throw PlatformError(.arcgis, url: infoURL, .nothingToLoad("the layer has no object id field to page by"))
        }
        let read = { (url: String) throws -> Page in
            let page = try query(url, key: key, paging: paging, geometryField: geometryField, limit: limit, spool: spool, malformed: &malformed)
            progress(spool.records)
            return page
        }
        if paging.ordersByID {
            try pagesByID(key: key, paging: paging, limit: limit, spool: spool, read: read)
        } else {
            try pagesOfListedIDs(key: key, paging: paging, limit: limit, spool: spool, read: read)
        }
        try spool.flush()
        return malformed == 0 ? [] : ["\(malformed) feature\(malformed == 1 ? "" : "s") had a geometry that is no point, line or "
                                      + "polygon ArcGIS writes, stored as NULL"]
    }

    /// `where KEY > last order by KEY`, a page of `maxRecordCount`, while the server says it
    /// held some back. A page that does not begin after the last one's key is the server
    /// ignoring the condition; a page of no rows said to be cut is a limit that never clears.
    private func pagesByID(key: String, paging: Paging, limit: Int?, spool: RecordSpool, read: (String) throws -> Page) throws {
        var last: Int?
        var number = 0
        while limit.map({ spool.records < $0 }) ?? true {
            number += 1
            let condition = last.map { "\(key) > \($0)" } ?? "1=1"
            let size = paging.sizesPages ? [("resultRecordCount", String(paging.pageSize))] : []
            let url = platformURL(layer + "/query", [("where", condition), ("outFields", "*"), ("orderByFields", "\(key) ASC")]
                                  + size + [("returnGeometry", "true"), ("outSR", "4326"), ("f", "json")])
            let page = try read(url)
            if let last, let first = page.ids.min(), first <= last {
                throw PlatformError(.arcgis, url: url, .repeatedPage(page: number, detail: "object id \(first) is not after \(last)"))
            }
            if page.ids.isEmpty {
                if page.exceeded { throw PlatformError(.arcgis, url: url, .endlessTransfer(page: number)) }
                return
            }
            last = page.ids.max()
            // A server sends at most its limit and says so; a page it does not say was cut is the last.
            if !page.exceeded { return }
        }
    }

    /// Servers before 10.3: every object id (`returnIdsOnly`), then the features of the ids in
    /// chunks (`objectIds=`).
    private func pagesOfListedIDs(key: String, paging: Paging, limit: Int?, spool: RecordSpool, read: (String) throws -> Page) throws {
        let idsURL = platformURL(layer + "/query", [("where", "1=1"), ("returnIdsOnly", "true"), ("f", "json")])
        let answer = try http.json(idsURL)
        try refusal(answer, url: idsURL)
        guard let listed = answer["objectIds"]?.arrayValue else {
            throw PlatformError(.arcgis, url: idsURL, .unexpected("no \"objectIds\" list"))
        }
        let ids = listed.compactMap(\.intValue).sorted()
        guard ids.count == listed.count else { throw PlatformError(.arcgis, url: idsURL, .unexpected("an object id that is no number")) }
        let chunk = min(paging.pageSize, 500)
        var number = 0
        for start in stride(from: 0, to: ids.count, by: chunk) {
            if let limit, spool.records >= limit { return }
            number += 1
            let wanted = ids[start..<min(start + chunk, ids.count)]
            let url = platformURL(layer + "/query", [("objectIds", wanted.map(String.init).joined(separator: ",")), ("outFields", "*"),
                                                     ("returnGeometry", "true"), ("outSR", "4326"), ("f", "json")])
            let page = try read(url)
            if page.ids.count > wanted.count || !Set(page.ids).isSubset(of: Set(wanted)) {
                throw PlatformError(.arcgis, url: url, .repeatedPage(page: number, detail: "features of other ids than the \(wanted.count) asked"))
            }
        }
    }

    /// One query page's features into the spool (at most up to `limit` records), and what the
    /// page said: `exceededTransferLimit` at the top in `f=json`, inside `properties` in `f=geojson`.
    private func query(_ url: String, key: String, paging: Paging, geometryField: String?, limit: Int?, spool: RecordSpool,
                       malformed: inout Int) throws -> Page {
        let body = try http.body(url)
        return try body.withUnsafeBufferPointer { buffer -> Page in
            let keyBytes = Array(key.utf8)
            let dates = paging.dateFields.map { Array($0.utf8) }
            var line = RawRecordLine()
            var page = Page()
            var featuresSeen = 0
            // One pass over the page: each feature is rewritten into the spool as it is met.
            let top = try RawAnswer(buffer, delimitingRoot: false).flatMap { answer in
                try answer.rootMembers(streaming: "features") { members, _ in
                    featuresSeen += 1
                    var attributes: RawCell?
                    var geometry: RawCell?
                    for member in members where !member.keyIsEscaped {
                        let name = UnsafeBufferPointer(rebasing: buffer[member.keyStart..<member.keyEnd])
                        if name.isSame(as: Self.attributesKey) || name.isSame(as: Self.propertiesKey) {
                            attributes = member.value
                        } else if name.isSame(as: Self.geometryKey) {
                            geometry = member.value
                        }
                    }
                    guard let attributes, attributes.kind == .object else {
                        throw PlatformError(.arcgis, url: url, .unexpected("a feature without its attributes"))
                    }
                    var id: Int?
                    var extra: [(String, [UInt8])] = []
                    if let geometryField {
                        extra.append((geometryField, geometryText(answer, geometry: geometry, malformed: &malformed)))
                    }
                    _ = line.write(answer, object: attributes, extra: extra) { name, value, line in
                        if name.isSame(as: keyBytes) { id = answer.integer(value) }
                        guard value.kind == .number, !dates.isEmpty, dates.contains(where: { name.isSame(as: $0) }),
                              let milliseconds = Self.milliseconds(UnsafeBufferPointer(rebasing: buffer[value.start..<value.end])) else {
                            return false
                        }
                        Self.appendTimestamp(milliseconds, to: &line)
                        return true
                    }
                    guard let id else { throw PlatformError(.arcgis, url: url, .unexpected("a feature without its object id \(key)")) }
                    page.ids.append(id)
                    if limit.map({ spool.records < $0 }) ?? true { try spool.writeLine(line.line) }
                }.map { (answer, $0) }
            }
            guard let (answer, members) = top, answer.value(at: ["features"], in: members)?.kind == .array else {
                let built = try http.parse(body, from: url)
                try refusal(built, url: url)
                throw PlatformError(.arcgis, url: url, .unexpected("no \"features\" list"))
            }
            let exceeded = answer.value(at: ["exceededTransferLimit"], in: members)
                ?? answer.value(at: ["properties", "exceededTransferLimit"], in: members)
            page.exceeded = exceeded?.kind == .true
            // A server that ignored `outSR=4326` sends its own coordinates (Web Mercator metres,
            // say): stored as longitudes and latitudes they would be wrong without a word.
            if featuresSeen > 0, let reference = answer.value(at: ["spatialReference"], in: members) {
                let codes = [answer.integer(answer.member("latestWkid", of: reference)), answer.integer(answer.member("wkid", of: reference))]
                    .compactMap { $0 }
                if !codes.isEmpty, !codes.contains(4326) {
                    throw PlatformError(.arcgis, url: url, .unexpected("geometries in EPSG:\(codes[0]), not the EPSG:4326 asked (outSR=4326)"))
                }
            }
            return page
        }
    }

    static let attributesKey = Array("attributes".utf8)
    static let propertiesKey = Array("properties".utf8)
    static let geometryKey = Array("geometry".utf8)

    /// A date's epoch milliseconds: whole digits read in place, else the number rounded.
    static func milliseconds(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        var value: Int64 = 0
        var negative = false
        for (index, byte) in digits.enumerated() {
            if index == 0, byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte &- UInt8(ascii: "0") < 10, value < Int64.max / 10 - 10 else {
                return Double(String(decoding: digits, as: UTF8.self)).flatMap { $0.isFinite && abs($0) < 9e15 ? Int64($0.rounded()) : nil }
            }
            value = value * 10 + Int64(byte &- UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }

    /// `"2015-04-07T11:04:35Z"`, its quotes included.
    static func appendTimestamp(_ milliseconds: Int64, to line: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ISO8601Timestamp.longestFourDigitYearText) { buffer in
            line.append(UInt8(ascii: "\""))
            if let count = ISO8601Timestamp.write(milliseconds: milliseconds, into: buffer) {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            } else {
                line.append(contentsOf: ISO8601Timestamp.format(milliseconds: milliseconds).utf8)
            }
            line.append(UInt8(ascii: "\""))
        }
    }

    /// A feature's geometry as the JSON text of its record's geometry value: WKT of esri JSON,
    /// GeoJSON as it came (`f=geojson`), null without one.
    private func geometryText(_ answer: RawAnswer, geometry: RawCell?, malformed: inout Int) -> [UInt8] {
        guard let cell = geometry, cell.kind == .object else { return Array("null".utf8) }
        if answer.member("type", of: cell) != nil { return Array(answer.text(of: cell)) }
        var bad = false
        let text = EsriGeometryText.wkt(answer.value(of: cell), malformed: &bad)
        if bad { malformed += 1 }
        return Array((text.map(JSONValue.quoted) ?? "null").utf8)
    }
}
