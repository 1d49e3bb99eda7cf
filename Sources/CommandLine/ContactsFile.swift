import Foundation
import RosterViewModels

/// The `--contacts` file: read once per command; cards that cannot be read are named on
/// standard error and skipped.
public enum ContactsFile {
    public struct Unreadable: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot read the contacts file \(path): \(reason)" }
    }

    public static func load(_ path: String?) throws(Unreadable) -> VCardDirectory? {
        guard let path else { return nil }
        let expanded = (path as NSString).expandingTildeInPath
        let directory: VCardDirectory
        do {
            directory = try VCardDirectory(contentsOf: URL(fileURLWithPath: expanded))
        } catch {
            throw Unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        for warning in directory.warnings { CommandRunner.err("warning: \(warning)") }
        return directory
    }
}
