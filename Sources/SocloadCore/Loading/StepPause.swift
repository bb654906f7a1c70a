import Foundation

/// A pause at a named step of a load, for the tests that kill socload there: when
/// `SOCLOAD_TEST_PAUSE_AT` names the step, `paused at STEP` goes to standard error and the
/// thread sleeps (a minute at most), so the test can send its signal at exactly that moment.
/// Without the variable it costs one environment lookup per step.
public enum StepPause {
    public static func at(_ step: String) {
        guard ProcessInfo.processInfo.environment["SOCLOAD_TEST_PAUSE_AT"] == step else { return }
        FileHandle.standardError.write(Data("paused at \(step)\n".utf8))
        Thread.sleep(forTimeInterval: 60)
    }
}
