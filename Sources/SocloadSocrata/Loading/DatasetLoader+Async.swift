import SocloadCore
import Foundation

extension DatasetLoader {
    /// The same load, for Swift concurrency: cancelling the calling `Task` stops it (rolled back,
    /// `LoadError.cancelled`). The load itself runs on a thread of its own.
    package func load(_ request: LoadRequest) async throws -> LoadSummary {
        let loader = self
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result { try loader.loadNow(request) })
                }
            }
        } onCancel: {
            loader.cancel(signal: LoadCancellation.taskCancelled)
        }
    }
}
