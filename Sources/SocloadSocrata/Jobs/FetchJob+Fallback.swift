import SocloadCore

/// A portal that refuses the query APIs for a dataset (404 or 400 on the first page of a fetch
/// without SoQL options, the description, when there is one, calling it tabular): `--api auto`
/// reads its rows.json export instead, saying so in the load's notes (warnings). A dataset that
/// is gone answers 404 there too, and its error is then the export's.
struct QueryAPIRefused: Error {
    let api: DatasetAPI
    let refusal: HTTPError

    /// The note of a load that fell back.
    var note: String {
        "the portal refuses \(api.displayName) for this dataset (\(refusal)), so its rows were read from the "
            + "rows.json export (deprecated by Socrata since 2026-10-01)"
    }
}

extension FetchJob {
    /// Runs `load` (the pages of `api`); under `--api auto` without SoQL options (only the query
    /// APIs filter), a first page the portal refuses (404, 400) becomes `QueryAPIRefused`, which
    /// the loader answers by loading rows.json.
    func refusalAsFallback(api: DatasetAPI, _ load: () throws -> Void) throws {
        do {
            try load()
        } catch let error as PageError where error.number == 1 && request.readsTheExport(after: error.underlying) {
            throw QueryAPIRefused(api: api, refusal: error.underlying)
        }
    }
}

extension LoadRequest {
    /// True when `error`, the query API's answer to the first page, means the load reads the
    /// rows.json export instead: a 404 or 400 under `--api auto` without SoQL options (only the
    /// query APIs filter).
    func readsTheExport(after error: HTTPError) -> Bool {
        guard spec.api == .auto, spec.query.isEmpty, case .status(let code, _, _, _) = error else { return false }
        return code == 404 || code == 400
    }
}

extension DatasetLoader {
    /// Runs the fetch; a portal that refuses the query API `auto` chose is read through rows.json,
    /// the summary's first note saying why.
    func fallingBackToRowsJSON(_ request: LoadRequest, _ run: (LoadRequest) throws -> LoadSummary) throws -> LoadSummary {
        do {
            return try run(request)
        } catch let refused as QueryAPIRefused {
            var rows = request
            rows.spec.api = .rows
            var summary = try run(rows)
            summary.notes.insert(refused.note, at: 0)
            return summary
        }
    }
}
