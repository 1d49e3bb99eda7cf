/// Which source a binary was built from. scripts/release writes the commit into
/// ReleaseCommit.swift (not tracked) and builds with -DROSTER_RELEASE; any other build says
/// "development".
enum BuildInfo {
    #if ROSTER_RELEASE
    static let commit = releaseCommit
    #else
    static let commit = "development"
    #endif
}
