// The libFuzzer entry point for the rows.json reader and the converter (`make fuzz`, which builds
// with `-sanitize=fuzzer,address -parse-as-library -D FUZZING`). Built normally, this program does
// nothing: the corpus runs as an ordinary test (FuzzCorpusTests).
import SocloadTestSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRowsJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    ConverterSelfCheck.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if FUZZING
import CFuzzerDriver

/// SwiftPM makes an executable's `main` this function; here it hands control to libFuzzer.
@_cdecl("socload_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzRowsJSON)
}
#endif
