import SocloadCore

/// `--fail-on stale,gone,moved,changed` of `status` and `refresh`: which findings make the command
/// exit 1 (a finding, not an error: as diff(1) exits 1 when the files differ). Failures keep
/// their own codes, which win.
struct WatchFindings: Equatable {
    enum Finding: String, CaseIterable {
        case stale, gone, moved, changed
    }

    let findings: Set<Finding>

    /// The findings of `--fail-on`'s comma-separated list; a word that is none is a usage error.
    init(_ text: String?, command: CommandSpec) throws {
        var findings = Set<Finding>()
        for word in (text ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() })
        where !word.isEmpty {
            guard let finding = Finding(rawValue: word) else {
                throw UsageError("--fail-on takes stale, gone, moved and changed (comma-separated), not '\(word)'", command: command)
            }
            findings.insert(finding)
        }
        if text != nil, findings.isEmpty {
            throw UsageError("--fail-on needs one or more of stale, gone, moved and changed (comma-separated)", command: command)
        }
        self.findings = findings
    }

    /// What the watch and the state found of one dataset that `--fail-on` names. A moved dataset
    /// is gone too (gone, with a suggestion where it went).
    func found(watch: DatasetWatch.State?, changed: Bool) -> [Finding] {
        var found: [Finding] = []
        if let watch, let finding = Finding(rawValue: watch.rawValue), findings.contains(finding) { found.append(finding) }
        if watch == .moved, findings.contains(.gone), !found.contains(.moved) { found.append(.gone) }
        if changed, findings.contains(.changed) { found.append(.changed) }
        return found
    }

    /// Exit 1 naming what was found, when anything was: `stale: a, b; gone: c`.
    func check(_ found: [(dataset: String, findings: [Finding])]) throws {
        let named = Finding.allCases.compactMap { finding -> String? in
            let datasets = found.filter { $0.findings.contains(finding) }.map(\.dataset)
            return datasets.isEmpty ? nil : "\(finding.rawValue): " + datasets.shortList()
        }
        guard !named.isEmpty else { return }
        throw CommandFailure("--fail-on found " + named.joined(separator: "; "), exitCode: .findings)
    }
}
