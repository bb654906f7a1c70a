// The libFuzzer entry point (`make fuzz`, which builds with `-sanitize=fuzzer,address
// -parse-as-library -D FUZZING`). $SOCLOAD_FUZZ_TARGET picks what the inputs are:
//   rows       a rows.json document: the reader and the converter (the default)
//   metadata   a dataset description: /api/views/ID.json and meta.view
//   soda-page  a SODA page of row objects: the array reader and the converter
// Built normally, this program does nothing: the corpora run as ordinary tests (FuzzCorpusTests).
import Foundation
import SocloadToolKit

/// The self-check the inputs go through, chosen once from the environment.
let fuzzCheck: @Sendable ([UInt8]) -> Void = {
    switch ProcessInfo.processInfo.environment["SOCLOAD_FUZZ_TARGET"] ?? "rows" {
    case "metadata": return MetadataSelfCheck.run
    case "soda-page": return SODAPageSelfCheck.run
    default: return ConverterSelfCheck.run
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    fuzzCheck(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if FUZZING
import CFuzzerDriver

/// SwiftPM makes an executable's `main` this function; here it hands control to libFuzzer.
@_cdecl("socload_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}
#endif
