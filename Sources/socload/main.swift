import Foundation
import CMalloc

// glibc gives each thread that allocates an arena of its own and keeps what it frees there: a
// batch's dozens of job threads (`refresh --jobs`, lending slots during backoffs) would each hold
// megabytes. Two arenas serve a load's two busy threads (the source's, the database's).
_ = socload_limit_malloc_arenas(2)

let exitCode = SocloadTool.main(arguments: Array(CommandLine.arguments.dropFirst()),
                                environment: ProcessInfo.processInfo.environment)
exit(exitCode.rawValue)
