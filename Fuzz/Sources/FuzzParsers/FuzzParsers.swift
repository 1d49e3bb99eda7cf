import Foundation
import RosterAsCode
import RosterCommandLine
import RosterDomain
import RosterServer
import RosterServerCore
import RosterStore

/// Every grammar a number or a time comes in by, on the same text: durations, TIME arguments,
/// ISO 8601 instants, local date-times, clock times, cadences, restrictions, people lists,
/// HOST:PORT, store locations, address ranges, a server config file, chat handles, a tz database
/// file and a POSIX TZ string, and a definition file (docs/AS-CODE.md). No crash (an overflow
/// traps), no value outside its range, and what can be written back reads back the same.

public func fuzzParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let now: UnixMillis = 1_767_225_600_000
    if let duration = DurationText.parse(text) {
        precondition(duration > .zero && duration <= DurationText.maximum, "a duration out of range: \(duration)")
    }
    if let week = DurationText.parse(text, within: .seconds(7 * 86_400)) { precondition(week <= .seconds(7 * 86_400)) }
    if let instant = try? TimeArgument.parse(text, now: now, timeZone: TimeZone(identifier: "UTC")!) {
        _ = instant
    }
    _ = TimeText.parseISO8601(text)
    if let local = LocalDateTime(parsing: text) {
        precondition(LocalDateTime(parsing: local.description) == local, "\(local) does not read back")
    }
    if let minute = RestrictionWindow.minuteOfDay(text) {
        precondition(
            (0...1440).contains(minute) && RestrictionWindow.minuteOfDay(RestrictionWindow.clockText(minute)) == minute)
    }
    if let cadence = try? ScheduleArguments.cadence(text) {
        precondition(
            (try? ScheduleArguments.cadence(ScheduleArguments.text(cadence))) == cadence,
            "\(cadence) does not read back")
    }
    if let window = try? ScheduleArguments.restriction(text) {
        precondition(window.weekdays.isSubset(of: 1...7) && !window.weekdays.isEmpty)
        precondition(
            (try? ScheduleArguments.restriction(ScheduleArguments.text(window))) == window,
            "\(window) does not read back")
    }
    if let slots = try? ScheduleArguments.people(text) {
        precondition(!slots.isEmpty && slots.allSatisfy { !$0.isEmpty })
    }
    _ = try? ScheduleArguments.handoff(text)
    if let address = HostPort(parsing: text, allowingPortZero: true) {
        precondition((0...65_535).contains(address.port))
    }
    _ = try? StoreLocation(parsing: text)
    if let range = IPRange(text) { precondition(IPRange(range.description) == range, "\(range) does not read back") }
    _ = try? ServerConfigFile.parse(text, path: "fuzz.yaml")
    if case .success(let handles) = ChatHandles.parse(text) {
        precondition(ChatHandles.problems(handles).isEmpty, "accepted handles with problems: \(handles)")
        precondition(
            (try? ChatHandles.parse(ChatHandles.text(handles)).get()) == handles, "\(handles) do not read back")
    }
    // A tz database file and a POSIX TZ string: parsed or refused, and every lookup in bounds.
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let file = try? TZif(parsing: bytes) {
        for instant: Int64 in [Int64.min, -1, 0, 1_800_000_000, Int64.max] {
            _ = file.abbreviation(at: instant, offsetSeconds: 3_600)
        }
    }
    if let posix = try? PosixTZ(parsing: text) {
        precondition(abs(posix.standardOffsetSeconds) <= 25 * 3_600, "a TZ offset out of range: \(posix)")
    }
    do throws(DefinitionFile.Problems) {
        _ = try DefinitionFile.parse(text, path: "fuzz.yaml") { _ in "a-secret-of-sixteen-bytes" }
    } catch {
        // Refused with at least one problem, each at a place inside the text (YAML breaks lines at
        // CR, LF, NEL, LS and PS; CR LF is one break).
        let breaks = text.unicodeScalars.filter { [0x0A, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) }.count
        let lines = breaks + 1
        precondition(
            !error.problems.isEmpty && error.problems.allSatisfy { ($0.place?.line ?? 1) <= lines + 1 }, "\(error)")
    }
    return 0
}
