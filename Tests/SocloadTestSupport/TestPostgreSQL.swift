import Foundation
import SocloadPostgreSQL
import XCTest

/// The PostgreSQL server the tests use: `$SOCLOAD_TEST_POSTGRES`, which `make test` (through
/// `scripts/with-postgres.sh`) sets to a throwaway server it starts and stops. Without it the
/// PostgreSQL tests fail, saying how to run them; they skip only when the developer sets
/// `SOCLOAD_SKIP_POSTGRES=1`.
public enum TestPostgreSQL {
    /// The server's URL, or a skip / failure as above.
    public static func serverURL() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["SOCLOAD_TEST_POSTGRES"], !url.isEmpty { return url }
        if environment["SOCLOAD_SKIP_POSTGRES"] == "1" {
            throw XCTSkip("SOCLOAD_SKIP_POSTGRES=1: the PostgreSQL tests are skipped")
        }
        XCTFail("no PostgreSQL server for the tests: run `make test`, or `scripts/with-postgres.sh swift test ...`, "
                + "or set SOCLOAD_SKIP_POSTGRES=1 to skip them")
        throw XCTSkip("no PostgreSQL server")
    }

    private static let counter = NSLock()
    nonisolated(unsafe) private static var created = 0

    /// A new, empty database on the test server, dropped when the returned value goes.
    public static func makeDatabase() throws -> TestDatabase {
        let server = try serverURL()
        counter.lock()
        created += 1
        let name = "socload_test_\(getpid())_\(created)"
        counter.unlock()
        let admin = try PostgreSQLConnection(PostgreSQLConnectionString(server)!)
        try admin.execute("CREATE DATABASE \(name)")
        return TestDatabase(server: server, name: name)
    }

    /// A database made for one test.
    public final class TestDatabase {
        public let server: String
        public let name: String
        /// `postgresql://postgres@127.0.0.1:PORT/NAME`.
        public let url: String

        init(server: String, name: String) {
            self.server = server
            self.name = name
            var components = URLComponents(string: server)!
            components.path = "/" + name
            url = components.string!
        }

        /// A new connection to the database.
        public func connect() throws -> PostgreSQLConnection {
            try PostgreSQLConnection(PostgreSQLConnectionString(url)!)
        }

        deinit {
            if let admin = try? PostgreSQLConnection(PostgreSQLConnectionString(server)!) {
                _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
        }
    }
}
