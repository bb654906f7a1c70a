import Foundation
import SocloadCore
import SocloadPlatforms
import SocloadSocrata

/// `socload fetch URL` of a CKAN, ArcGIS or OpenDataSoft dataset: the platform's own job
/// (`PlatformFetchJob`) in the database the fetch opens, reported as any fetch is.
extension DatasetFetch {
    /// The platform dataset this fetch names, if its URL (or `--platform`) says it is one; a
    /// URL the platform does not take, or a Socrata option with it, is a usage error.
    func platformRequest() throws -> PlatformFetchJob.Request? {
        do {
            return try spec.platformRequest()
        } catch let error as PlatformError {
            throw UsageError(error.description, command: FetchCommand.spec)
        } catch let error as LoadSpecError {
            throw UsageError(error.key.map { "--\($0) \(error.problem)" } ?? error.problem, command: FetchCommand.spec)
        }
    }

    /// What a load of the platform dataset would make, from its metadata alone.
    func planned(_ request: PlatformFetchJob.Request, context: CommandContext) throws -> PlatformPlanned {
        try PlatformFetchJob.planned(request, http: try LoadSetup.httpOptions(appToken: network.appToken, context),
                                     retry: LoadSetup.retryPolicy(retries: network.retries, context),
                                     onRetry: LoadSetup.retryNotices(quiet: quiet))
    }

    func runPlatform(_ request: PlatformFetchJob.Request, context: CommandContext, job: DatasetJob,
                     whenCommitted: (DatasetOutcome) throws -> Void = { _ in }) throws -> DatasetOutcome {
        let platform = request.locator.platform
        if dryRun {
            let plan: LoadPlan
            do {
                plan = try planned(request, context: context).plan
            } catch let error as PlanError {
                throw UsageError(error.description, command: FetchCommand.spec)
            }
            context.output.write("platform \(platform.displayName) (\(PlatformFetchJob.api(of: platform)))\n" + PlanText.describe(plan))
            return DatasetOutcome(table: plan.mainTable.name, result: "planned (nothing loaded)", wroteTable: false, status: "planned")
        }
        return try job.writing {
            try job.stop.check()
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
            if outcome.wroteTable {
                StepPause.at("committed")
                try whenCommitted(outcome)
            }
            return outcome
        }
    }
}

extension DatasetFetch {
    /// What a load would make now, from the source's metadata alone, whatever its platform: a
    /// Socrata dataset with its request (nil for another platform's, which has no
    /// `LoadRequest`). What `status` and `refresh --locked` compare with the database.
    func plannedLoad(context: CommandContext) throws -> (planned: DatasetLoader.PlannedLoad, request: LoadRequest?) {
        if let platform = try platformRequest() {
            let planned = try planned(platform, context: context)
            return ((planned.plan, planned.dataUpdatedAt, planned.columns, .auto, planned.dictionary), nil)
        }
        let request = try request(context: context)
        return (try planned(request, context: context), request)
    }
}
