import Foundation
import RosterDomain

extension Roster_V1_ReminderRule {
    /// The rule in words, as `admin reminder list` and the audit log both say it: "15m before each
    /// shift, schedule Platform primary, only Ada Lovelace". Names are the caller's (ids when it has none).
    public func sentence(scheduleName: String?, personName: String?) -> String {
        var text: String
        if leadMinutes > 0 {
            text = DurationText.format(minutes: Int(leadMinutes)) + " before each shift"
        } else {
            let minute = Int(atMinuteOfDay)
            text =
                "\(daysBefore) day\(daysBefore == 1 ? "" : "s") before each shift at "
                + String(format: "%02d:%02d", minute / 60, minute % 60)
            text += timeZone.isEmpty ? " (the schedule's time zone)" : " \(timeZone)"
        }
        text += schedule.isEmpty ? ", every schedule" : ", schedule \(scheduleName ?? schedule)"
        if !person.isEmpty { text += ", only \(personName ?? person)" }
        return text
    }
}
