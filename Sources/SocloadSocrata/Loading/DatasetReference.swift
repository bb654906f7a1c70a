import SocloadCore
import Foundation

/// What the user named: a local file, a portal URL, or a bare 4x4 dataset id, resolved to where
/// the rows.json document is read from.
///
/// - A path to an existing file is loaded as it is (a FIFO and `/dev/fd/N` too); `-` is standard input.
/// - An `http://` or `https://` URL in any form copied from a portal (`/Category/Name/abcd-1234`,
///   `/d/abcd-1234`, `/resource/abcd-1234.json`, `/api/views/abcd-1234`, ...) becomes the dataset's
///   rows.json export on that host; a URL of a rows.json file (`.../rows.json`, `.../x.rows.json`)
///   is used as given.
/// - A bare id (`n5m4-mism`) is fetched from `domain` when one is given, else read from the bundled
///   copy `<datasets directory>/<id>.json`.
public struct DatasetReference: Sendable, Equatable {
    public enum Location: Sendable, Equatable {
        case file(String)
        case url(String)
    }

    public let location: Location
    /// The 4x4 id, when the reference names one.
    public let datasetID: String?
    /// The portal host (and port), for remote datasets.
    public let domain: String?
    /// True when a bare id was served from the bundled datasets directory.
    public let isBundledCopy: Bool
    /// True when the user named a rows.json export by its URL (`--api auto` reads that export).
    public let namesExport: Bool

    /// `http://127.0.0.1:8765` or `https://data.example.org`: the portal with the scheme the
    /// dataset is read with, for links to its pages; nil for a file.
    public var portalRoot: String? {
        guard let domain, case .url(let url) = location else { return nil }
        let scheme = url.lowercased().hasPrefix("http://") ? "http" : "https"
        return "\(scheme)://\(domain)"
    }

    public init(location: Location, datasetID: String?, domain: String?, isBundledCopy: Bool = false, namesExport: Bool = false) {
        self.namesExport = namesExport
        self.location = location
        self.datasetID = datasetID
        self.domain = domain
        self.isBundledCopy = isBundledCopy
    }

    /// True for a Socrata 4x4 id: four lower-case letters or digits, a dash, four more.
    public static func isDatasetID(_ text: String) -> Bool { DatasetID.isValid(text) }

    /// The 4x4 id standing anywhere in a file's name (see `DatasetID.inFileName`).
    public static func datasetID(inFileName name: String) -> String? { DatasetID.inFileName(name) }

    /// Resolves what the user typed. `datasetsDirectories` are searched in order for bundled copies.
    public static func resolve(_ text: String, domain: String?, datasetsDirectories: [String],
                               fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        throws -> DatasetReference {
        if text == FileByteSource.standardInput {
            return DatasetReference(location: .file(text), datasetID: nil, domain: nil)
        }
        if fileExists(text) {
            return DatasetReference(location: .file(text), datasetID: datasetID(inFileName: (text as NSString).lastPathComponent),
                                    domain: nil)
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            return try resolveURL(text)
        }
        if isDatasetID(text) {
            if let domain, !domain.isEmpty {
                let base = try portalBase(domain)
                return DatasetReference(location: .url(rowsURL(base: base.url, id: text)), datasetID: text,
                                        domain: base.host)
            }
            for directory in datasetsDirectories {
                let path = (directory as NSString).appendingPathComponent("\(text).json")
                if fileExists(path) {
                    return DatasetReference(location: .file(path), datasetID: text, domain: nil, isBundledCopy: true)
                }
            }
            throw DatasetReferenceError.noDomain(id: text)
        }
        throw DatasetReferenceError.notFound(text)
    }

    static func rowsURL(base: String, id: String) -> String {
        "\(base)/api/views/\(id)/rows.json?accessType=DOWNLOAD"
    }

    /// `data.example.org` → `https://data.example.org`; `http://127.0.0.1:8080/` kept (minus the slash).
    static func portalBase(_ domain: String) throws -> (url: String, host: String) {
        let withScheme = domain.contains("://") ? domain : "https://\(domain)"
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty,
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { throw DatasetReferenceError.invalidDomain(domain) }
        let hostAndPort = components.port.map { "\(host):\($0)" } ?? host
        return ("\(scheme)://\(hostAndPort)", hostAndPort)
    }

    private static func resolveURL(_ text: String) throws -> DatasetReference {
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty,
              let scheme = components.scheme?.lowercased()
        else { throw DatasetReferenceError.noDatasetIDInURL(text) }
        let hostAndPort = components.port.map { "\(host):\($0)" } ?? host
        let parts = components.path.split(separator: "/").map(String.init)
        let ids = parts.map { part -> String in
            for suffix in [".rows.json", ".json", ".csv", ".xml"] where part.lowercased().hasSuffix(suffix) {
                return String(part.dropLast(suffix.count))
            }
            return part
        }.filter(isDatasetID)
        let lastComponent = parts.last?.lowercased() ?? ""
        if lastComponent == "rows.json" || lastComponent.hasSuffix(".rows.json") {
            return DatasetReference(location: .url(text), datasetID: ids.last, domain: hostAndPort, namesExport: true)
        }
        guard let id = ids.last else { throw DatasetReferenceError.noDatasetIDInURL(text) }
        return DatasetReference(location: .url(rowsURL(base: "\(scheme)://\(hostAndPort)", id: id)),
                                datasetID: id, domain: hostAndPort)
    }

    /// The location as it may be shown and stored: a URL without any user name or password.
    public var displaySource: String {
        switch location {
        case .file(let path): return path == FileByteSource.standardInput ? "standard input" : path
        case .url(let url): return Self.withoutCredentials(url)
        }
    }

    /// For a catalog entry: the signature of the file this names (nil: a URL, standard input).
    func fileSignature() throws -> String? {
        guard case .file(let path) = location else { return nil }
        return try FileSignature.text(ofFile: path)
    }

    /// The URL without any user name or password in it, as it may be shown and stored.
    static func withoutCredentials(_ url: String) -> String { CredentialRedaction.withoutCredentials(url) }
}

/// A reference that does not name a dataset socload can find.
public enum DatasetReferenceError: CategorizedError, Equatable {
    case noDatasetIDInURL(String)
    case noDomain(id: String)
    case notFound(String)
    case invalidDomain(String)

    public var description: String {
        switch self {
        case .noDatasetIDInURL(let url):
            return "no dataset id (like abcd-1234) in the URL '\(url)'"
        case .noDomain(let id):
            return "no portal for dataset '\(id)' and no bundled copy: pass --domain HOST (or set SOCLOAD_DOMAIN)"
        case .notFound(let text):
            return "'\(text)' is not a file, a URL or a dataset id (like abcd-1234)"
        case .invalidDomain(let domain):
            return "'\(domain)' is not a host name or an http(s) URL"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .noDatasetIDInURL, .invalidDomain: return .usage
        case .noDomain, .notFound: return .missingInput
        }
    }
}
