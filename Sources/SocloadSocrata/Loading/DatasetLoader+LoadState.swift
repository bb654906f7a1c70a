import SocloadCore
import SocloadEngine

/// What a Socrata fetch keeps besides what every load does (`LoadState`): the dataset's view,
/// the response's head, and a file's signature as it was read.
struct FetchFacts {
    var view: ViewMetadata?
    var head: HTTPResponseHead?
    /// `FileSignature.Reading`'s, when the rows came from a file read whole.
    var fileSignature: String?
}

extension DatasetLoader {
    /// What one fetch or sync has seen so far.
    typealias LoadState = SocloadEngine.LoadState<FetchFacts>

    /// The current time, to the second, as ISO-8601 UTC.
    static func now() -> String { LoadState.now() }
}

extension SocloadEngine.LoadState where Facts == FetchFacts {
    convenience init(schemaPolicy: SchemaChangePolicy = .warn, keptChangeRefreshes: Int? = nil, keepsHistory: Bool = false) {
        self.init(FetchFacts(), schemaPolicy: schemaPolicy, keptChangeRefreshes: keptChangeRefreshes, keepsHistory: keepsHistory)
    }
}
