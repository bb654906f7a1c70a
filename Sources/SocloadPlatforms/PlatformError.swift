import SocloadCore

/// Why a dataset of CKAN, ArcGIS or OpenDataSoft could not be loaded: each says the platform,
/// the URL that answered and what was wrong with the answer, in one line. A server that pages
/// wrongly (a page again, paging ignored, a transfer limit that never clears) or a body cut
/// short is unavailable (exit 69); an answer that is whole but not what the platform documents
/// is bad data (exit 65). The table is left as it was either way.
package struct PlatformError: CategorizedError, Equatable {
    package enum Problem: Equatable, Sendable {
        /// The URL is not a dataset of the platform `--platform` names.
        case notADataset(platform: DataPlatform)
        /// The body is not JSON, or stops before its end (a transfer cut short).
        case unreadable(String)
        /// The body is JSON but not the platform's answer (`fields` missing, an error object).
        case unexpected(String)
        /// A page holds rows an earlier page held (the server ignores paging or pages in a loop).
        case repeatedPage(page: Int, detail: String)
        /// The server keeps saying there are more rows and sends none.
        case endlessTransfer(page: Int)
        /// A page holds more rows than it asked for: the server ignores the page size.
        case oversizedPage(page: Int, rows: Int, asked: Int)
        /// The answer ends before all it should hold (a transfer cut short at a record's end).
        case cutShort(String)
        /// The platform answered with its own error object.
        case refused(String)
        /// Nothing of the dataset can be loaded (no DataStore table, no file of a readable format).
        case nothingToLoad(String)
    }

    package let platform: DataPlatform
    package let url: String
    package let problem: Problem

    package init(_ platform: DataPlatform, url: String, _ problem: Problem) {
        self.platform = platform
        self.url = CredentialRedaction.withoutCredentials(url)
        self.problem = problem
    }

    static func notADataset(_ url: String, platform: DataPlatform) -> PlatformError {
        PlatformError(platform, url: url, .notADataset(platform: platform))
    }

    /// What was wrong first, then the URL (a long URL would push the reason out of a shortened line).
    package var description: String {
        let name = platform.displayName
        switch problem {
        case .notADataset:
            return "\(url) is no \(name) dataset URL (\(Self.forms(of: platform)))"
        case .unreadable(let why):
            return "\(name) sent an unreadable answer (\(why)) from \(url)"
        case .unexpected(let why):
            return "\(name) answered with \(why), from \(url)"
        case let .repeatedPage(page, detail):
            return "\(name)'s page \(page) repeats rows of an earlier page (\(detail)): the server ignores paging; from \(url)"
        case .endlessTransfer(let page):
            return "\(name) said more rows follow page \(page) but sent none: the transfer limit never clears; from \(url)"
        case let .oversizedPage(page, rows, asked):
            return "\(name)'s page \(page) holds \(rows) rows where \(asked) were asked: the server ignores paging; from \(url)"
        case .cutShort(let why):
            return "\(name)'s answer was cut short: \(why); from \(url)"
        case .refused(let message):
            return "\(name) refused the request (\(message)): \(url)"
        case .nothingToLoad(let why):
            return "\(why) (\(url))"
        }
    }

    package var kind: FailureKind {
        switch problem {
        case .notADataset: return .usage
        case .unreadable, .repeatedPage, .endlessTransfer, .oversizedPage, .cutShort, .refused: return .unavailable
        case .unexpected, .nothingToLoad: return .badData
        }
    }

    /// The URL forms a platform's datasets take, for the message of one that is none.
    static func forms(of platform: DataPlatform) -> String {
        switch platform {
        case .ckan: return "expected https://HOST/dataset/NAME[/resource/ID] or an action API URL"
        case .arcgis: return "expected https://HOST/.../FeatureServer/N or .../MapServer/N"
        case .ods: return "expected https://HOST/explore/dataset/ID/ or .../api/explore/v2.1/catalog/datasets/ID"
        case .socrata: return "expected https://HOST/resource/ID.json or a dataset page"
        }
    }
}
