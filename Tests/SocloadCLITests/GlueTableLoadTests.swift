import Foundation
import SocloadTestSupport
import XCTest

/// `load --glue`: one many-to-many relation loaded from either side, in either order, kept
/// right by a refresh of one side, with hostile names.
final class GlueTableLoadTests: DocumentTestCase {
    /// Committees with their members, legislators with their roles (some roles are no
    /// committee membership): the two sides of one many-to-many relation.
    static let committeeSide = """
        [{"id": "C1", "name": "Budget", "members": [{"leg_id": "L1", "role": "chair", "name": "Ana Åström"},
                                                    {"leg_id": "L2", "role": "member", "name": "Bo"},
                                                    {"leg_id": "L2", "role": "vice chair", "name": "Bo"}]},
         {"id": "C2", "name": "Roads", "members": [{"leg_id": "L9", "role": "member", "name": "Zed"}]},
         {"id": "C3", "name": "Parks", "members": [{"leg_id": "L1", "role": "member", "name": "Ana Åström"}]}]
        """
    static let legislatorSide = """
        [{"leg_id": "L1", "name": "Ana Åström", "roles": [{"committee_id": "C1", "committee": "Budget", "type": "committee member"},
                                                          {"type": "party", "party": "Green"},
                                                          {"committee_id": "C3", "committee": "Parks", "type": "committee member"}]},
         {"leg_id": "L2", "name": "Bo", "roles": [{"committee_id": "C1", "committee": "Budget", "type": "committee member"},
                                                  {"committee_id": "C4", "committee": "Ports", "type": "committee member"}]}]
        """

    private func loadCommittees(_ db: String, _ text: String = committeeSide) throws -> SocloadRun {
        try succeed(["load", try write(text, to: "committees.json"), "--pk", "id", "--glue", "members:legislators.leg_id"], db: db)
    }

    private func loadLegislators(_ db: String, _ text: String = legislatorSide) throws -> SocloadRun {
        try succeed(["load", try write(text, to: "legislators.json"), "--pk", "leg_id", "--glue", "roles:committees.id:committee_id"],
                    db: db)
    }

    private func links(_ db: String) throws -> [String] {
        try csv("SELECT committees_id, legislators_leg_id, role, name, committee, type, _from_committees, _from_legislators "
                + "FROM committees_legislators ORDER BY committees_id, legislators_leg_id", db: db)
    }

    func testAGlueTableIsTheSameFromBothSidesInEitherOrder() throws {
        let expected = [
            "committees_id,legislators_leg_id,role,name,committee,type,_from_committees,_from_legislators",
            "C1,L1,chair,Ana Åström,Budget,committee member,1,1",
            "C1,L2,vice chair,Bo,Budget,committee member,1,1",
            "C2,L9,member,Zed,,,1,0",
            "C3,L1,member,Ana Åström,Parks,committee member,1,1",
            "C4,L2,,,Ports,committee member,0,1",
        ]
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        let other = try TestPostgreSQL.makeDatabase()
        for (first, second, db) in [(true, false, directory.path("a.sqlite")), (false, true, directory.path("b.sqlite")),
                                    (true, false, postgreSQL.url), (false, true, other.url)] {
            _ = second
            let committees = first ? try loadCommittees(db) : nil
            let legislators = try loadLegislators(db)
            let committeesAfter = first ? nil : try loadCommittees(db)
            XCTAssertEqual(try links(db), expected, db)
            // Members per committee, through the glue table.
            XCTAssertEqual(try csv("SELECT c.name, count(*) FROM committees c JOIN committees_legislators g ON g.committees_id = c.id "
                                   + "GROUP BY c.name ORDER BY c.name", db: db),
                           ["name,count(*)", "Budget,2", "Parks,1", "Roads,1"].map { db.hasPrefix("postgres") ? $0.replacingOccurrences(of: "count(*)", with: "count") : $0 }, db)
            let committeeRun = (committees ?? committeesAfter)!
            XCTAssertTrue(committeeRun.stderr.contains("1 link was given twice by committees and merged"), committeeRun.stderr)
            XCTAssertTrue(legislators.stderr.contains("committees_legislators: 1 element of roles without committee_id skipped"),
                          legislators.stderr)
            // A reference to a row that is not there is kept and reported.
            let dangling = first ? legislators.stderr : committeesAfter!.stderr
            XCTAssertTrue(dangling.contains("link points at rows") || dangling.contains("links point at rows"), dangling)
        }
    }

    func testARefreshOfOneSideDropsOnlyTheLinksNoSideAssertsAnyMore() throws {
        // Budget drops Bo and Roads drops Zed; the legislators still assert Bo in Budget.
        let fewerMembers = #"""
            [{"id": "C1", "name": "Budget", "members": [{"leg_id": "L1", "role": "chair", "name": "Ana Åström"}]},
             {"id": "C2", "name": "Roads", "members": []},
             {"id": "C3", "name": "Parks", "members": [{"leg_id": "L1", "role": "member", "name": "Ana Åström"}]}]
            """#
        // Then Bo leaves Budget on the legislators' side too.
        let fewerRoles = #"""
            [{"leg_id": "L1", "name": "Ana Åström", "roles": [{"committee_id": "C1", "committee": "Budget", "type": "committee member"},
                                                              {"committee_id": "C3", "committee": "Parks", "type": "committee member"}]},
             {"leg_id": "L2", "name": "Bo", "roles": [{"committee_id": "C4", "committee": "Ports", "type": "committee member"}]}]
            """#
        for (db, keep) in try databases() {
            _ = keep
            _ = try loadCommittees(db)
            _ = try loadLegislators(db)
            _ = try loadCommittees(db, fewerMembers)
            XCTAssertEqual(try links(db), [
                "committees_id,legislators_leg_id,role,name,committee,type,_from_committees,_from_legislators",
                "C1,L1,chair,Ana Åström,Budget,committee member,1,1",
                "C1,L2,vice chair,Bo,Budget,committee member,0,1",
                "C3,L1,member,Ana Åström,Parks,committee member,1,1",
                "C4,L2,,,Ports,committee member,0,1",
            ], db)
            _ = try loadLegislators(db, fewerRoles)
            XCTAssertEqual(try csv("SELECT committees_id, legislators_leg_id FROM committees_legislators "
                                   + "ORDER BY committees_id, legislators_leg_id", db: db),
                           ["committees_id,legislators_leg_id", "C1,L1", "C3,L1", "C4,L2"], db)
        }
    }

    func testHostileNamesInAGlueTable() throws {
        let committees = #"[{"i\"d": "C'1", "members": [{"le\"g": "L;1", "ro le": "x'); DROP TABLE t; --"}]}]"#
        for (db, keep) in try databases() {
            _ = keep
            try succeed(["load", try write(committees, to: "committees.json"), "--table", #"com"mit"#, "--pk", #"i"d"#,
                         "--glue", #"members:"le""g:s"."le""g""#], db: db)
            let rows = try csv(#"SELECT * FROM "com""mit_le""g:s""#, db: db)
            XCTAssertEqual(rows.count, 2, "\(rows)")
            XCTAssertTrue(rows.last?.hasPrefix("C'1,L;1,") ?? false, "\(rows)")
            XCTAssertTrue(rows.last?.contains("x'); DROP TABLE t; --") ?? false, "\(rows)")
        }
    }
}
