import Foundation
import SocloadTestSupport
import XCTest

/// `socload completion bash|zsh|fish`: scripts the real shells load, completing every command,
/// every option of each (the same declarations as the help) and the values of an option that
/// takes one of a few words. zsh and fish come with `make test`; without them (outside CI) their
/// part is skipped.
final class CompletionTests: XCTestCase {
    private func script(_ shell: String) throws -> String {
        let run = try SocloadProcess.run(["completion", shell])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    private func shellPresent(_ path: String) throws -> Bool {
        if FileManager.default.isExecutableFile(atPath: path) { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("\(path) is missing (make test installs it)") }
        return false
    }

    /// Every command and its options, from the help the binary prints.
    private func commandsAndOptions() throws -> [String: [String]] {
        let root = try SocloadProcess.run(["--help"]).stdout
        let names = root.components(separatedBy: "\n").drop { !$0.hasPrefix("SUBCOMMANDS") }.dropFirst()
            .prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "help" }
        XCTAssertTrue(names.contains("fetch") && names.contains("completion"), "\(names)")
        var result: [String: [String]] = [:]
        for name in names {
            let usage = try SocloadProcess.run([name, "--help"]).stdout.components(separatedBy: "\n").first { $0.hasPrefix("USAGE:") } ?? ""
            result[name] = usage.components(separatedBy: " ").filter { $0.hasPrefix("[--") }
                .map { String($0.dropFirst().prefix { $0 != "]" }) }
        }
        return result
    }

    func testBashCompletesCommandsOptionsAndValues() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("socload.bash")
        try Data(try script("bash").utf8).write(to: URL(fileURLWithPath: path))
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let run = try ChildProcess.run("/bin/bash", ["-c", "source '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); "
                                                         + "_socload; printf '%s\\n' \"${COMPREPLY[@]}\""])
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try complete(["socload", "que"]), ["query"])
        XCTAssertEqual(try complete(["socload", "comp"]), ["completion"])
        XCTAssertEqual(try complete(["socload", "query", "select 1", "--format", "t"]), ["table", "tsv"])
        XCTAssertEqual(try complete(["socload", "fetch", "x", "--on-schema-change", ""]), ["warn", "fail", "evolve"])
        for (command, options) in try commandsAndOptions() {
            let offered = Set(try complete(["socload", command, "--"]))
            XCTAssertFalse(options.isEmpty && command != "completion", command)
            for option in options { XCTAssertTrue(offered.contains(option), "\(command) \(option): \(offered.sorted())") }
        }
    }

    func testFishCompletesCommandsOptionsAndValues() throws {
        guard try shellPresent("/usr/bin/fish") else { throw XCTSkip("fish is not installed") }
        let directory = try TemporaryDirectory()
        let path = directory.path("socload.fish")
        try Data(try script("fish").utf8).write(to: URL(fileURLWithPath: path))
        func complete(_ line: String) throws -> [String] {
            let run = try ChildProcess.run("/usr/bin/fish", ["--no-config", "-c", "source '\(path)'; complete -C '\(line)'"])
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        XCTAssertEqual(try complete("socload sel"), ["select"])
        XCTAssertEqual(Set(try complete("socload select t --format ")), ["table", "csv", "tsv", "json", "ndjson", "markdown", "geojson"])
        XCTAssertTrue(try complete("socload fetch --geo").contains("--geopackage"))
        for (command, options) in try commandsAndOptions() {
            let offered = Set(try complete("socload \(command) --"))
            for option in options { XCTAssertTrue(offered.contains(option), "\(command) \(option)") }
        }
    }

    func testZshLoadsTheScriptAndRegistersIt() throws {
        guard try shellPresent("/usr/bin/zsh") else { throw XCTSkip("zsh is not installed") }
        let directory = try TemporaryDirectory()
        let path = directory.path("_socload")
        let text = try script("zsh")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let syntax = try ChildProcess.run("/usr/bin/zsh", ["-n", path])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        let loaded = try ChildProcess.run("/usr/bin/zsh", ["-f", "-c", "autoload -U compinit; compinit -u -D; source '\(path)'; "
                                                          + "print -r -- ${_comps[socload]}"])
        XCTAssertEqual(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "_socload", loaded.stderr)
        for (command, options) in try commandsAndOptions() {
            for option in options { XCTAssertTrue(text.contains("'\(option)") || text.contains("'*\(option)"), "\(command) \(option)") }
        }
    }

    /// A command whose argument is a table completes the names of the tables of the database the
    /// command would open: the one `--db` names, else the default in the working directory.
    func testATableArgumentCompletesTheDatabasesTables() throws {
        let directory = try TemporaryDirectory()
        let here = directory.url
        let datasets = ["--datasets", Fixtures.datasetsDirectory.path, "-q"]
        XCTAssertEqual(try SocloadProcess.run(["fetch", "n5m4-mism"] + datasets, directory: here).status, 0)
        let other = directory.path("other.sqlite")
        XCTAssertEqual(try SocloadProcess.run(["fetch", "geo5-shps", "--db", other, "--extract", "park"] + datasets).status, 0)
        let bin = SocloadProcess.executable.deletingLastPathComponent().path
        let environment = "export PATH='\(bin)':\"$PATH\"; cd '\(here.path)'; "
        let bash = directory.path("socload.bash")
        try Data(try script("bash").utf8).write(to: URL(fileURLWithPath: bash))
        func bashComplete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let run = try ChildProcess.run("/bin/bash", ["-c", environment + "source '\(bash)'; COMP_WORDS=(\(quoted)); "
                                                         + "COMP_CWORD=\(words.count - 1); _socload; printf '%s\\n' \"${COMPREPLY[@]}\""])
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stdout.split(separator: "\n").map(String.init).sorted()
        }
        XCTAssertEqual(try bashComplete(["socload", "select", ""]), ["n5m4_mism"])
        XCTAssertEqual(try bashComplete(["socload", "info", "--db", other, ""]), ["geo5_shps", "park"])
        XCTAssertEqual(try bashComplete(["socload", "verify", "--db=\(other)", "p"]), ["park"])
        // As bash really calls it: the words split at = (COMP_WORDS), the line whole (COMP_LINE).
        let line = "socload info --db=\(other) "
        let split = try ChildProcess.run("/bin/bash", ["-c", environment + "source '\(bash)'; COMP_LINE='\(line)'; COMP_POINT=\(line.count); "
                                                      + "COMP_WORDS=(socload info --db = '\(other)' ''); COMP_CWORD=5; _socload; "
                                                      + "printf '%s\\n' \"${COMPREPLY[@]}\""])
        XCTAssertEqual(split.stdout.split(separator: "\n").map(String.init).sorted(), ["geo5_shps", "park"], split.stderr)
        // Only the first argument is a table: after it, files (extract's columns are no table).
        XCTAssertFalse(try bashComplete(["socload", "select", "n5m4_mism", ""]).contains("n5m4_mism"))
        XCTAssertEqual(try bashComplete(["socload", "select", "--limit", "3", "n"]), ["n5m4_mism"])
        // A path option completes files, not the words of its value name.
        XCTAssertEqual(try bashComplete(["socload", "select", "--db", "oth"]), ["other.sqlite"])
        guard try shellPresent("/usr/bin/fish") else { throw XCTSkip("fish is not installed") }
        let fish = directory.path("socload.fish")
        try Data(try script("fish").utf8).write(to: URL(fileURLWithPath: fish))
        let run = try ChildProcess.run("/usr/bin/fish", ["--no-config", "-c", "set -x PATH '\(bin)' $PATH; cd '\(here.path)'; "
                                                         + "source '\(fish)'; complete -C 'socload schema --db \(other) '"])
        XCTAssertEqual(run.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted(), ["geo5_shps", "park"])
        // As in bash, only the first argument is a table; after it, files.
        let later = try ChildProcess.run("/usr/bin/fish", ["--no-config", "-c", "set -x PATH '\(bin)' $PATH; cd '\(here.path)'; "
                                                           + "source '\(fish)'; complete -C 'socload extract --db \(other) park '"])
        let offered = later.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        XCTAssertFalse(offered.contains("park"), later.stdout)
        XCTAssertTrue(offered.contains("other.sqlite"), later.stdout)
        guard try shellPresent("/usr/bin/zsh") else { throw XCTSkip("zsh is not installed") }
        let zsh = directory.path("_socload")
        try Data(try script("zsh").utf8).write(to: URL(fileURLWithPath: zsh))
        // zsh's completion needs a terminal; its table lister is checked as the function it is.
        let listed = try ChildProcess.run("/usr/bin/zsh", ["-f", "-c", environment + "source '\(zsh)'; compadd() { print -l -- ${(P)2} }; "
                                                          + "words=(select --db '\(other)' ''); CURRENT=4; _socload_tables"])
        XCTAssertEqual(listed.stdout.split(separator: "\n").map(String.init).sorted(), ["geo5_shps", "park"], listed.stderr)
    }

    func testAnUnknownShellIsAUsageError() throws {
        let run = try SocloadProcess.run(["completion", "tcsh"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.hasPrefix("Error: completion takes bash, zsh or fish, not 'tcsh'"), run.stderr)
    }
}
