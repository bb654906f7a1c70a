import Foundation
import SocloadCore
import SocloadPlatforms
import SocloadSocrata

/// `socload fetch URL` of a CKAN, ArcGIS or OpenDataSoft dataset: the platform's own job
/// (`PlatformFetchJob`) in the database the fetch opens, reported as any fetch is.
extension DatasetFetch {
    /// The platform dataset this fetch names, if its URL (or `--platform`) says it is one.
    func platformLocator() throws -> PlatformLocator? {
        guard case .dataset(let text) = spec.source else { return nil }
        do {
            return try PlatformLocator(url: text, platform: spec.platform)
        } catch let error as PlatformError {
            throw UsageError(error.description, command: FetchCommand.spec)
        }
    }

    /// The options a platform's dataset cannot take (they are SODA's or the sync's), said at once.
    private func refuseSocrataOptions(_ locator: PlatformLocator) throws {
        let given: [(String, Bool)] = [("--where", spec.query.where != nil), ("--select", spec.query.select != nil),
                                       ("--order", spec.query.order != nil), ("--api", spec.api != .auto),
                                       ("--incremental", spec.incremental || spec.incrementalAbove != nil),
                                       ("--cache", spec.cache != nil), ("--system-columns", spec.includeSystemColumns),
                                       ("--max-rows", spec.maxRows != nil)]
        if let option = given.first(where: \.1)?.0 {
            throw UsageError("\(option) is for Socrata datasets; \(spec.sourceText) is a \(locator.platform.displayName) dataset",
                             command: FetchCommand.spec)
        }
    }

    func runPlatform(_ locator: PlatformLocator, context: CommandContext, job: DatasetJob,
                     whenWriting: (LoadRequest?) throws -> Void = { _ in },
                     whenCommitted: (DatasetOutcome) throws -> Void = { _ in }) throws -> DatasetOutcome {
        try refuseSocrataOptions(locator)
        var request = PlatformFetchJob.Request(url: spec.sourceText, locator: locator)
        request.tableName = spec.tableName
        request.tableOptions = spec.tableOptions
        request.force = spec.force
        request.limit = spec.limit
        if dryRun {
            let (session, _) = try LoadSetup.openForLoading(database, network: network, quiet: true, progress: false,
                                                             geoPackage: geoPackage, context, command: FetchCommand.spec)
            defer { session.close() }
            let plan = try PlatformFetchJob(context: session.loader.context, request: request).plan()
            context.output.write("platform \(locator.platform.displayName) (\(PlatformFetchJob.api(of: locator.platform)))\n"
                                 + PlanText.describe(plan))
            return DatasetOutcome(table: plan.mainTable.name, result: "planned (nothing loaded)", wroteTable: false, status: "planned")
        }
        return try job.writing {
            try job.stop.check()
            try whenWriting(nil)
            let (session, staged) = try LoadSetup.openForLoading(database, network: network, quiet: quiet, progress: job.showsProgress,
                                                                  geoPackage: geoPackage, context, command: FetchCommand.spec,
                                                                  batch: batch)
            defer {
                session.finish()
                session.close()
            }
            let summary = try LoadSetup.perform(session, staged: staged, table: spec.tableName, command: FetchCommand.spec) {
                try PlatformFetchJob(context: session.loader.context, request: request).run()
            }
            session.meter.clear()
            let outcome = Self.report(summary, session: session, upToDateLine: batch == nil)
            if outcome.wroteTable { try whenCommitted(outcome) }
            return outcome
        }
    }
}
