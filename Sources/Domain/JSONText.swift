import Foundation

/// JSON written a piece at a time (log lines, event-stream data): a string as a JSON literal,
/// escaped by Foundation's encoder.
public enum JSONText {
    public static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // Encoding a String cannot fail.
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
