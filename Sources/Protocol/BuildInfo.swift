/// Which source a binary was built from. scripts/release copies the tree, writes the commit
/// into the copy's ReleaseCommit.swift (never tracked) and builds the copy with
/// -DROSTER_RELEASE; any other build says "development".
enum BuildInfo {
    #if ROSTER_RELEASE
        static let commit = releaseCommit
    #else
        static let commit = "development"
    #endif
}
