import Foundation

/// A whole Socrata portal on loopback, for the tests and `make bench` of a nightly mirror: a
/// Discovery API catalog (`/api/catalog/v1`, paged by `offset` within its first 10,000 results
/// and by `scroll_id` past them, as the real one is), each dataset's description
/// (`/api/views/ID.json`) and its SODA 2.1 pages (`/resource/ID.json`, by key or offset, in `:id`
/// order). Rows are made as they are sent, never held, so a thousand datasets of millions of
/// rows cost no memory.
///
/// Sizes are drawn as real portals have them (`sizes`): most datasets small (median about 850
/// rows), a few of 100,000-300,000 holding about half the rows. A publisher's edit (`change`)
/// moves a dataset to its next version: one row changed, one added, `rowsUpdatedAt` later, so a
/// refresh's counts are known exactly. Faults (`arm`) make a dataset's pages fail as real
/// portals do: 500s, 429s with Retry-After, a body cut short, a slow body.
///
///     let portal = try SimulatedPortal(count: 300, scale: 0.02)
///     print(portal.baseURL, portal.datasets.count)
public final class SimulatedPortal: @unchecked Sendable {
    /// What one dataset is now.
    public struct Dataset: Sendable {
        public let id: String
        /// Its rows at version 0; each version adds one.
        public let baseRows: Int
        public internal(set) var version = 0
        public internal(set) var fault: Fault?
        /// Requests its fault still spoils.
        var faultsLeft = 0

        public var rowCount: Int { baseRows + version }
        public var rowsUpdatedAt: Int { SimulatedPortal.epoch + 10 * version + 5 }
    }

    /// How a faulty dataset's pages fail, each the first `times` requests for them after `arm`.
    public enum Fault: String, Sendable, CaseIterable {
        case serverError, throttled, cut, slow
    }

    /// The seconds of the portal's clock where versions start.
    public static let epoch = 1_700_000_000
    /// The catalog's window for `offset` paging.
    public static let offsetWindow = 10_000
    /// The data columns every dataset has (besides `:id`, `:created_at`, `:updated_at`).
    public static let columns: [(fieldName: String, type: String)] = [
        ("name", "text"), ("amount", "number"), ("day", "calendar_date"), ("flag", "checkbox"), ("category", "text"),
    ]

    public let server: LoopbackHTTPServer
    /// Leave `data_updated_at` out of catalog results (a catalog that does not give it).
    public let catalogGivesDataUpdatedAt: Bool
    /// Seconds a `.slow` page takes.
    public var slowSeconds = 2.0
    /// How many requests a faulty dataset's pages fail before they succeed.
    public var faultyRequests = 2
    let lock = NSLock()
    var state: [Dataset]
    var counts: [String: Int] = [:]

    /// `count` datasets of the drawn sizes times `scale` (at least one row each).
    public init(count: Int, scale: Double = 1, seed: UInt64 = 45, catalogGivesDataUpdatedAt: Bool = true) throws {
        state = Self.sizes(count: count, seed: seed).enumerated().map { index, rows in
            Dataset(id: Self.id(index), baseRows: max(2, Int((Double(rows) * scale).rounded())))
        }
        self.catalogGivesDataUpdatedAt = catalogGivesDataUpdatedAt
        server = try LoopbackHTTPServer()
        server.handle { [weak self] request in self?.respond(to: request) }
    }

    public var baseURL: String { server.baseURL }
    public var datasets: [Dataset] { lock.withLock { state } }
    public func stop() { server.stop() }

    /// The id of the `index`-th dataset: `pt00-0001`, ... (4x4 ids, in catalog order).
    public static func id(_ index: Int) -> String {
        let number = index + 1
        return "pt" + String(number / 10_000).leftPadded(2) + "-" + String(number % 10_000).leftPadded(4)
    }

    /// Row counts drawn as real portals have them: log-normal around 850 rows (most below
    /// 2,000, a tail to 99,000), and for every 100 datasets one of 100,000-300,000.
    public static func sizes(count: Int, seed: UInt64) -> [Int] {
        var random = SeededGenerator(seed: seed)
        var sizes = (0..<count).map { _ -> Int in
            // Box-Muller: a standard normal from two uniforms.
            let u = max(Double.random(in: 0..<1, using: &random), 1e-12)
            let v = Double.random(in: 0..<1, using: &random)
            let normal = (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
            return min(99_000, max(1, Int(850 * exp(1.26 * normal))))
        }
        for _ in 0..<(count / 100) {
            sizes[random.int(0...count - 1)] = random.int(100_000...300_000)
        }
        return sizes
    }

    /// Moves `fraction` of the datasets (chosen by `seed`) to their next version; their ids.
    @discardableResult
    public func change(fraction: Double, seed: UInt64) -> [String] {
        lock.withLock {
            var random = SeededGenerator(seed: seed)
            let chosen = Self.pick(fraction, of: state.count, using: &random)
            for index in chosen { state[index].version += 1 }
            return chosen.map { state[$0].id }
        }
    }

    /// Makes `fraction` of the datasets (chosen by `seed`) faulty, the kinds in turn (or all
    /// `kind`); their ids. The faults of others are cleared.
    @discardableResult
    public func arm(fraction: Double, seed: UInt64, kind: Fault? = nil) -> [String] {
        lock.withLock {
            for index in state.indices { (state[index].fault, state[index].faultsLeft) = (nil, 0) }
            var random = SeededGenerator(seed: seed)
            let chosen = Self.pick(fraction, of: state.count, using: &random)
            for (turn, index) in chosen.enumerated() {
                let fault = kind ?? Fault.allCases[turn % Fault.allCases.count]
                (state[index].fault, state[index].faultsLeft) = (fault, faultyRequests)
            }
            return chosen.map { state[$0].id }
        }
    }

    /// Makes the datasets `ids` faulty, the kinds in turn (or all `kind`); the faults of others
    /// are cleared.
    public func arm(_ ids: [String], kind: Fault? = nil) {
        lock.withLock {
            for index in state.indices { (state[index].fault, state[index].faultsLeft) = (nil, 0) }
            for (turn, id) in ids.enumerated() {
                guard let index = state.firstIndex(where: { $0.id == id }) else { continue }
                (state[index].fault, state[index].faultsLeft) = (kind ?? Fault.allCases[turn % Fault.allCases.count], faultyRequests)
            }
        }
    }

    /// The requests served so far, by kind: `catalog`, `views`, `pages`, `offsets` (pages that
    /// skipped rows by offset), `faults` (answers spoiled on purpose).
    public func stats() -> [String: Int] {
        lock.withLock { counts }
    }

    static func pick(_ fraction: Double, of count: Int, using random: inout SeededGenerator) -> [Int] {
        let wanted = min(count, Int((Double(count) * fraction).rounded()))
        var indexes = Array(0..<count)
        indexes.shuffle(using: &random)
        return indexes.prefix(wanted).sorted()
    }

    func count(_ kind: String) {
        counts[kind, default: 0] += 1
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
