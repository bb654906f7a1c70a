import Foundation

/// What is wrong with a project file, and where: `socload.json: dataset 2 (n5m4-mism), key
/// "page-size" takes a number above 0, not '0'`.
public struct ProjectError: Error, LocalizedError, Sendable, CustomStringConvertible {
    public let path: String
    /// `dataset 2 (n5m4-mism)`, `defaults`; nil for the file's own keys.
    public let place: String?
    public let key: String?
    public let problem: String
    /// The file is not there or cannot be read (rather than wrong).
    public let isMissing: Bool

    init(path: String, place: String? = nil, key: String? = nil, problem: String, isMissing: Bool = false) {
        (self.path, self.place, self.key, self.problem, self.isMissing) = (path, place, key, problem, isMissing)
    }

    public var description: String {
        var text = path
        if let place { text += ": " + place }
        if let key { text += (place == nil ? ": " : ", ") + "key \"\(key)\"" }
        return text + " " + problem
    }

    public var errorDescription: String? { description }
}
