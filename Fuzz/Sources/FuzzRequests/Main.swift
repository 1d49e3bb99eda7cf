import FuzzDriver

@_cdecl("FuzzRequests_main")
public func fuzzerEntry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzRequests)
}

/// libFuzzer's own entry: a debug build links libFuzzer's main, which calls this.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzRequests(data, size)
}
