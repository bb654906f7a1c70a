import SocloadCore

/// The features of a layer, page after page, as records: the attributes, dates (epoch
/// milliseconds) as ISO-8601 UTC, and the geometry as WKT.
extension ArcGISLayer {
    func writeRecords(of description: PlatformDescription, into spool: RecordSpool, limit: Int?,
                      progress: (Int) -> Void) throws -> [String] {
        let infoURL = platformURL(layer, [("f", "json")])
        let info = try http.json(infoURL)
        try refusal(info, url: infoURL)
        let paging = paging(of: description, info: info)
        let geometryField = description.fields.last { $0.type == .geometry && $0.platformType.hasPrefix("esriGeometry") }?.field
        var malformed = 0
        let write = { (features: [JSONValue]) throws in
            for feature in features {
                if let limit, spool.records >= limit { return }
                try spool.write(record(feature, paging: paging, geometryField: geometryField, malformed: &malformed))
            }
            progress(spool.records)
        }
        if let key = paging.objectIDField, paging.ordersByID {
            try pagesByID(key: key, paging: paging, limit: limit, spool: spool, write: write)
        } else if let key = paging.objectIDField {
            try pagesOfListedIDs(key: key, paging: paging, limit: limit, spool: spool, write: write)
        } else {
            throw PlatformError(.arcgis, url: infoURL, .nothingToLoad("the layer has no object id field to page by"))
        }
        try spool.flush()
        return malformed == 0 ? [] : ["\(malformed) feature\(malformed == 1 ? "" : "s") had a geometry that is no point, line or "
                                      + "polygon ArcGIS writes, stored as NULL"]
    }

    /// `where KEY > last order by KEY`, a page of `maxRecordCount`, while the server says it
    /// held some back. A page that does not begin after the last one's key is the server
    /// ignoring the condition; a page of no rows said to be cut is a limit that never clears.
    private func pagesByID(key: String, paging: Paging, limit: Int?, spool: RecordSpool,
                           write: ([JSONValue]) throws -> Void) throws {
        var last: Int?
        var page = 0
        while limit.map({ spool.records < $0 }) ?? true {
            page += 1
            let condition = last.map { "\(key) > \($0)" } ?? "1=1"
            let size = paging.sizesPages ? [("resultRecordCount", String(paging.pageSize))] : []
            let url = platformURL(layer + "/query", [("where", condition), ("outFields", "*"), ("orderByFields", "\(key) ASC")]
                                  + size + [("returnGeometry", "true"), ("outSR", "4326"), ("f", "json")])
            let (features, exceeded) = try query(url)
            let ids = features.compactMap { $0["attributes"]?[key]?.intValue }
            guard ids.count == features.count else {
                throw PlatformError(.arcgis, url: url, .unexpected("a feature without its object id \(key)"))
            }
            if let last, let first = ids.min(), first <= last {
                throw PlatformError(.arcgis, url: url, .repeatedPage(page: page, detail: "object id \(first) is not after \(last)"))
            }
            try write(features)
            if features.isEmpty {
                if exceeded { throw PlatformError(.arcgis, url: url, .endlessTransfer(page: page)) }
                return
            }
            last = ids.max()
            // A server without `resultRecordCount` sends its limit and says so; one that sends
            // fewer than a page without saying more follow is done.
            if !exceeded { return }
        }
    }

    /// Servers before 10.3: every object id (`returnIdsOnly`), then the features of the ids in
    /// chunks (`objectIds=`).
    private func pagesOfListedIDs(key: String, paging: Paging, limit: Int?, spool: RecordSpool,
                                  write: ([JSONValue]) throws -> Void) throws {
        let idsURL = platformURL(layer + "/query", [("where", "1=1"), ("returnIdsOnly", "true"), ("f", "json")])
        let answer = try http.json(idsURL)
        try refusal(answer, url: idsURL)
        guard let listed = answer["objectIds"]?.arrayValue else {
            throw PlatformError(.arcgis, url: idsURL, .unexpected("no \"objectIds\" list"))
        }
        let ids = listed.compactMap(\.intValue).sorted()
        guard ids.count == listed.count else { throw PlatformError(.arcgis, url: idsURL, .unexpected("an object id that is no number")) }
        let chunk = min(paging.pageSize, 500)
        var page = 0
        for start in stride(from: 0, to: ids.count, by: chunk) {
            if let limit, spool.records >= limit { return }
            page += 1
            let wanted = ids[start..<min(start + chunk, ids.count)]
            let url = platformURL(layer + "/query", [("objectIds", wanted.map(String.init).joined(separator: ",")), ("outFields", "*"),
                                                     ("returnGeometry", "true"), ("outSR", "4326"), ("f", "json")])
            let (features, _) = try query(url)
            let got = Set(features.compactMap { $0["attributes"]?[key]?.intValue })
            if features.count > wanted.count || !got.isSubset(of: Set(wanted)) {
                throw PlatformError(.arcgis, url: url, .repeatedPage(page: page, detail: "features of other ids than the \(wanted.count) asked"))
            }
            try write(features)
        }
    }

    /// A query page's features and whether the server held some back (`exceededTransferLimit`,
    /// at the top in `f=json`, inside `properties` in `f=geojson`).
    private func query(_ url: String) throws -> (features: [JSONValue], exceeded: Bool) {
        let answer = try http.json(url)
        try refusal(answer, url: url)
        guard let features = answer["features"]?.arrayValue else {
            throw PlatformError(.arcgis, url: url, .unexpected("no \"features\" list"))
        }
        let exceeded = answer["exceededTransferLimit"]?.boolValue ?? answer["properties"]?["exceededTransferLimit"]?.boolValue ?? false
        // A server that ignored `outSR=4326` sends its own coordinates (Web Mercator metres, say):
        // stored as longitudes and latitudes they would be wrong without a word.
        if let reference = answer["spatialReference"], !features.isEmpty {
            let codes = [reference["latestWkid"]?.intValue, reference["wkid"]?.intValue].compactMap { $0 }
            if !codes.isEmpty, !codes.contains(4326) {
                throw PlatformError(.arcgis, url: url, .unexpected("geometries in EPSG:\(codes[0]), not the EPSG:4326 asked (outSR=4326)"))
            }
        }
        return (features, exceeded)
    }

    /// A feature as a record: its attributes (a date's epoch milliseconds as ISO-8601 UTC; an
    /// old server's date text as it came) and its geometry as WKT.
    private func record(_ feature: JSONValue, paging: Paging, geometryField: String?, malformed: inout Int) -> JSONValue {
        var members = (feature["attributes"] ?? feature["properties"])?.members ?? []
        if !paging.dateFields.isEmpty {
            for index in members.indices where paging.dateFields.contains(members[index].key) {
                if case .number(let digits) = members[index].value, let milliseconds = Int64(digits) ?? Double(digits).map({ Int64($0) }) {
                    members[index] = JSONMember(key: members[index].key, value: .string(ISO8601Timestamp.format(milliseconds: milliseconds)))
                }
            }
        }
        if let geometryField {
            if let geometry = feature["geometry"], geometry["type"] != nil {
                // GeoJSON (`f=geojson`): the converter reads it as it is.
                members.append(JSONMember(key: geometryField, value: geometry))
            } else {
                var bad = false
                let text = EsriGeometryText.wkt(feature["geometry"], malformed: &bad)
                if bad { malformed += 1 }
                members.append(JSONMember(key: geometryField, value: text.map(JSONValue.string) ?? .null))
            }
        }
        return .object(members)
    }
}
