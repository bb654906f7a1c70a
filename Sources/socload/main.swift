import Foundation

let exitCode = SocloadTool.main(arguments: Array(CommandLine.arguments.dropFirst()),
                                environment: ProcessInfo.processInfo.environment)
exit(exitCode.rawValue)
