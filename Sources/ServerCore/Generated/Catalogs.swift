// The message catalogs of Sources/ServerCore/Locales, written by scripts/messages: do not edit.
// The PO files are the source; Words reads these.

enum Catalogs {
    static let template = #"""
# The web app's and chat posts' messages, from the sources by scripts/messages: do not edit.
msgid ""
msgstr ""
"Project-Id-Version: roster\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "No schedule “{1}”. Schedules: {2}"
msgstr ""

#: Sources/Notifications/Chat/ChatCommands.swift
msgid "/oncall: who is on call on every schedule; /oncall SCHEDULE; /oncall next SCHEDULE; /oncall me. Add --public to answer in the channel."
msgstr ""

#: Sources/Notifications/Chat/ChatCommands.swift
msgid "There are no schedules yet."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "… and {1} more schedules"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Nobody else is planned on {1}."
msgstr ""

#: Sources/Notifications/Chat/ChatCommands.swift Sources/Notifications/Chat/ChatPosts.swift
msgid "nobody"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Next on call for {1}: {2} from {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Roster does not know your {1} handle ({2}): an admin adds it with {3}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is on call for {2} until {3}"
msgid_plural "{1} are on call for {2} until {3}"
msgstr[0] ""
msgstr[1] ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} is on call for {2}"
msgid_plural "{1} are on call for {2}"
msgstr[0] ""
msgstr[1] ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is not on call now; next on call for {2} from {3}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is not on call now, nor planned to be in the next year."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Reminder ({1}): {2} is on call for {3} from {4} to {5}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody is on call for {1} from {2} on"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody is on call for {1} from {2} to {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} has time off but is on call for {2} from {3} to {4}"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody on the schedule is free then."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Free then, fewest hours first: {1}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Roster test post for webhook {1}: this channel will get Roster's posts."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "override by {1}"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "override"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "swap"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "cover request taken"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "duty taken"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "handoff"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "changed by {1}"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "plan changed"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} is on call for {2} until {3}; next: {4}"
msgid_plural "{1} are on call for {2} until {3}; next: {4}"
msgstr[0] ""
msgstr[1] ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "({1})"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s shifts changed (by {2}):"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• gained {1}: {2} to {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• lost {1}: {2} to {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• moved {1}: {2} to {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "(was {1})"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "… and {1} more"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Someone"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} took {2}'s cover request on {3}: {4} to {5}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} cancelled their cover request on {2}: {3} to {4}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s cover request on {2} expired with nobody taking it: {3} to {4}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} backed out: {2}'s cover request on {3} is open again: {4} to {5}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s cover request on {2} is open again: {3} to {4}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} asks for cover on {2}: {3} to {4}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "(“{1}”)"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Escalation policy {1} was removed"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}, step {2} pages {3} until {4}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}, step {2} pages {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Escalation policy {1} changed; its steps page the same people"
msgstr ""

#: Sources/Notifications/Chat/ChatPosts.swift
msgid " and "
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "The audit log is for admins, as over the protocol."
msgstr ""

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift Sources/Web/PersonPage.swift Sources/Web/WebApp.swift
msgid "Busy"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "The audit log could not be read now: try again in a moment."
msgstr ""

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift Sources/Web/WebApp.swift
msgid "The server is busy: try again in a moment."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Changes — {1}"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "Changes"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift Sources/Web/OnCallPage.swift Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift Sources/Web/SchedulePage.swift
msgid "Times in {1}"
msgstr ""

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift Sources/Web/ScheduleEditPage.swift
msgid "Back to the timeline"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "No changes recorded."
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "server"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "{1}, revision {2}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "“{1}”"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Older changes are left out (the newest {1} are shown)."
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "Schedule created"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Override added: {1}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Override removed: {1}"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "Rotations changed"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "Details changed"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "Definition saved"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "Schedule deleted"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "One-off shift added: {1}, {2} – {3}"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "One-off shift removed"
msgstr ""

#: Sources/Web/ChangesPage.swift
msgid "Changed"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift Sources/Web/SchedulePage.swift
msgid "{1} for {2}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "without {1}"
msgstr ""

#: Sources/Web/CommandLineSignIn.swift
msgid "Sign in to roster-client"
msgstr ""

#: Sources/Web/CommandLineSignIn.swift
msgid "You are signed in with a token that names nobody: roster-client can act only for a person."
msgstr ""

#: Sources/Web/CommandLineSignIn.swift
msgid "No roster-client is waiting for this code (it is wrong, used or older than 10 minutes)."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CommandLineSignIn.swift
msgid "A roster-client asks to act as {1} ({2}) with the code {3}. Allow it only if you started it."
msgstr ""

#: Sources/Web/CommandLineSignIn.swift
msgid "Allow"
msgstr ""

#: Sources/Web/CommandLineSignIn.swift
msgid "Deny"
msgstr ""

#: Sources/Web/CommandLineSignIn.swift
msgid "Sign in first; you come back here to allow the roster-client."
msgstr ""

#: Sources/Web/CommandLineSignIn.swift Sources/Web/SignIn.swift
msgid "Sign in with your organisation’s account"
msgstr ""

#: Sources/Web/CommandLineSignIn.swift
msgid "Done: go back to your terminal."
msgstr ""

#: Sources/Web/CommandLineSignIn.swift
msgid "Refused: the roster-client gets nothing."
msgstr ""

#: Sources/Web/CommandLineSignIn.swift Sources/Web/PersonPage.swift Sources/Web/SignInWithProvider.swift Sources/Web/WebPage.swift
msgid "My shifts"
msgstr ""

#: Sources/Web/ConflictsSection.swift
msgid "Conflicts: on duty during time off"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "has time off but is on duty from {1} to {2}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "has time off ({1}) but is on duty from {2} to {3}."
msgstr ""

#: Sources/Web/ConflictsSection.swift
msgid "Nobody on this schedule is free then."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "{1} ({2} h)"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "Free, fewest hours around it first: {1}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "Cover with {1}"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Cover requests"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "No open cover requests."
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Who asks"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift Sources/Web/OverrideForm.swift Sources/Web/PushPage.swift Sources/Web/SchedulePage.swift
msgid "From"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift Sources/Web/PushPage.swift
msgid "To"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift Sources/Web/PersonalTokensPage.swift
msgid "For"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "State"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Note"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift Sources/Web/ServicePage.swift
msgid "everyone"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "open"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CoverRequestsSection.swift
msgid "taken by {1}"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "cancelled"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "expired"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CoverRequestsSection.swift
msgid "Cover requests on {1}"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Take"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Decline"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift Sources/Web/OverrideForm.swift
msgid "Cancel"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Back out"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Not a step"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Say which request and which step: take, decline, cancel or back out."
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Not done"
msgstr ""

#: Sources/Web/CoverRequestsSection.swift
msgid "Back to the schedule"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "People — {1}"
msgstr ""

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift Sources/Web/WebPage.swift
msgid "People"
msgstr ""

#: Sources/Web/DirectoryPage.swift
msgid "Search"
msgstr ""

#: Sources/Web/DirectoryPage.swift
msgid "Group by"
msgstr ""

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
msgid "Position"
msgstr ""

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
msgid "Team"
msgstr ""

#: Sources/Web/DirectoryPage.swift
msgid "Show"
msgstr ""

#: Sources/Web/DirectoryPage.swift
msgid "No employees found"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "No one matches “{1}”"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "{1} of {2} person; revision {3}."
msgid_plural "{1} of {2} people; revision {3}."
msgstr[0] ""
msgstr[1] ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "unknown zone {1}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} is a date and time, YYYY-MM-DDTHH:MM (in {2})"
msgstr ""

#: Sources/Web/FormParts.swift
msgid "What it changes"
msgstr ""

#: Sources/Web/FormParts.swift
msgid "Nobody gains or loses duty: this changes nothing that is planned."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} gains {2} – {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} loses {2} – {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "and {1} more stretch"
msgid_plural "and {1} more stretches"
msgstr[0] ""
msgstr[1] ""

#: Sources/Web/FormParts.swift
msgid "Nothing is changed until you confirm."
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Business hours"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Outside business hours"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Night"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Weekend"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Holiday"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Person"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Total"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Business"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Outside"
msgstr ""

#: Sources/Web/HoursPage.swift Sources/Web/OverrideForm.swift
msgid "Override"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Cover taken"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Cover given"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Periods"
msgstr ""

#: Sources/Web/HoursPage.swift Sources/Web/SchedulePage.swift
msgid "Stretches"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Longest"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Shortest rest"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Reports of everyone’s hours are for admins, as over the protocol."
msgstr ""

#: Sources/Web/HoursPage.swift Sources/Web/WebApp.swift
msgid "Not a window"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "days is 7, 28 or 90."
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "No report"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "The report could not be made now: try again in a moment."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Hours — {1}"
msgstr ""

#: Sources/Web/HoursPage.swift Sources/Web/SchedulePage.swift
msgid "Hours and fairness"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Days and hours counted in {1}"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Window"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Last {1} days"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "From {1} to {2}; before {3} as the schedule is defined now (the duty record begins then)."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "From {1} to {2}."
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Coverage"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Gaps"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Equity"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Balance (Grafana OnCall’s score)"
msgstr ""

#: Sources/Web/HoursPage.swift
msgid "Nobody was on duty in this window."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "{1}: {2} h, {3}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} s)"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} min {2} s)"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} h {2} min)"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} day)"
msgid_plural "(in {1} days)"
msgstr[0] ""
msgstr[1] ""

#: Sources/Web/LiveScript.swift
msgid "less than a minute ago"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} minute ago"
msgid_plural "{1} minutes ago"
msgstr[0] ""
msgstr[1] ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} hour ago"
msgid_plural "{1} hours ago"
msgstr[0] ""
msgstr[1] ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} day ago"
msgid_plural "{1} days ago"
msgstr[0] ""
msgstr[1] ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "No connection — showing data from {1}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "No connection — showing data from {1} (no plan kept beyond this: it may be out of date)"
msgstr ""

#: Sources/Web/LiveScript.swift
msgid "Live"
msgstr ""

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Nobody is on duty."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Until {1}"
msgstr ""

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "No change planned."
msgstr ""

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Next"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "since {1}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "from {1}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "Browser zone ({1})"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift
msgid "On call now — {1}"
msgstr ""

#: Sources/Web/OnCallPage.swift Sources/Web/WebPage.swift
msgid "On call now"
msgstr ""

#: Sources/Web/OnCallPage.swift Sources/Web/SchedulePage.swift
msgid "No schedules yet."
msgstr ""

#: Sources/Web/OnCallPage.swift
msgid "This schedule could not be worked out now."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift Sources/Web/PersonPage.swift Sources/Web/SchedulePage.swift Sources/Web/ServicePage.swift
msgid "As of {1}, revision {2}."
msgstr ""

#: Sources/Web/OnCallPage.swift
msgid "Nobody new."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift
msgid "{1} stays on."
msgid_plural "{1} stay on."
msgstr[0] ""
msgstr[1] ""

#: Sources/Web/OverrideForm.swift Sources/Web/PersonalTokensPage.swift Sources/Web/SchedulePage.swift Sources/Web/ServicePage.swift
msgid "Until"
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "Until must be after From"
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "Choose who is on duty instead"
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "Sign in to make changes"
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "Overrides are made by an admin, or by a person for themselves where the schedule allows it."
msgstr ""

#: Sources/Web/OverrideForm.swift Sources/Web/PersonPage.swift Sources/Web/ScheduleEditPage.swift Sources/Web/SignIn.swift Sources/Web/SignInWithProvider.swift Sources/Web/WebApp.swift Sources/Web/WebPage.swift
msgid "Sign in"
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "Not allowed"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "Only an admin may change {1}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "{1} does not let people put themselves on duty; ask an admin."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "Override — {1}"
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "Sign in to make changes from this page (a bearer token can use roster-client admin override)."
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "Instead of"
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "(nobody: add a person)"
msgstr ""

#: Sources/Web/OverrideForm.swift
msgid "On duty"
msgstr ""

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Choose a person"
msgstr ""

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Reason"
msgstr ""

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Preview"
msgstr ""

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Confirm"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "No such person"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Nobody here has the id “{1}”."
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Next on duty"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Sign in with a token that names you (an admin makes one on the server: {1}) to see your shifts."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "This token names no person here: ask an admin for one made with {1}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "My shifts — {1}"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Upcoming"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Recent"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Calendar"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "A private feed of your shifts for your calendar app (iCalendar). The link is shown once."
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Make my calendar link"
msgstr ""

#: Sources/Web/PersonPage.swift Sources/Web/PushPage.swift
msgid "Notifications"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "on your phone or in this browser"
msgstr ""

#: Sources/Web/PersonPage.swift Sources/Web/PersonalTokensPage.swift
msgid "My tokens"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "for scripts and status lights"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "No duty planned."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "On duty now on {1}, until {2}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Next on duty: {1}, {2} – {3}."
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Projects"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Contact"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Photo"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Open photo"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "The schedules could not be worked out now: {1}"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "No duty in the last 14 days."
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "No duty in the next 28 days."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "{1} – {2}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "before {1} – {2}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "{1} – {2} and on"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "before {1} – {2} and on"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "on duty now"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "This token names no person here."
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "My calendar link"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Subscribe to this address in your calendar app. It is shown only now; keep it private."
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Open in my calendar app"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "No calendar link"
msgstr ""

#: Sources/Web/PersonPage.swift
msgid "Try again in a moment."
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "Sign in to see your tokens."
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "Tokens of your own for scripts, calendar programs and status lights: each reads, or also does what you may do yourself, until it expires or you revoke it."
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "Make a token"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "What it is for"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "Days it lasts"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "Reading only"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "Make the token"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "No tokens."
msgstr ""

#: Sources/Web/PersonalTokensPage.swift Sources/Web/SignIn.swift
msgid "Token"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "May"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "read"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "read and act"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonalTokensPage.swift
msgid "read, act on {1}"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "Revoke"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "A token lasts from 1 to 365 days."
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "My new token"
msgstr ""

#: Sources/Web/PersonalTokensPage.swift
msgid "Copy it now: it is shown only this once. Keep it private."
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Sign in to be notified on your phone."
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Your phone or this browser tells you when you go on duty and when someone asks you to cover."
msgstr ""

#: Sources/Web/PushPage.swift
msgid "This browser may not show notifications: allow them in its settings."
msgstr ""

#: Sources/Web/PushPage.swift
msgid "This device could not be subscribed:"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "This device was subscribed again with the server's new key."
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Notify me on this device"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "My devices"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "No devices yet."
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Device"
msgstr ""

#: Sources/Web/PushPage.swift Sources/Web/ServicePage.swift
msgid "Through"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "stopped: it kept failing"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Remove"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "What I am told"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Going on duty"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Cover asked of me"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "My requests taken or expired"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Duty during my time off"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Changes to my shifts"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Quiet hours (going on duty still rings)"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Time zone"
msgstr ""

#: Sources/Web/PushPage.swift
msgid "Save"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Name the people of the rotation, one per line"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "At most {1} people (lines) in a rotation"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Every is a whole number from 1 to 1000"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "The handoff unit is hours, days, weeks or months"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "The layer is a whole number from 0 to {1}"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "First handoff"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Choose two different people"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "First person’s duty from"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "First person’s until"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person’s duty from"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person’s until"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Each until must be after its from"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift Sources/Web/WebApp.swift
msgid "Admins only"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Rotations and swaps are changed by an admin, signed in here."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "Change — {1}"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Change the schedule"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Add a rotation"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "People, in turn order"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "One per line (full name or id); “Ada Lovelace + Alan Turing” share a turn"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Hand off every"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Unit"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "hours"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "days"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "weeks"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "months"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Layer (the highest with anyone on duty wins)"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Swap duty"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "First person"
msgstr ""

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "Days from {1} to {2}"
msgstr ""

#: Sources/Web/SchedulePage+Timeline.swift
msgid "Nothing in this window."
msgstr ""

#: Sources/Web/SchedulePage+Timeline.swift
msgid "Now"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "More than {1} stretches: the first ones are drawn."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "Override: {1}"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Final schedule"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Temporary schedules"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Time off"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "{1} off"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "Layer {1} ({2} rotation)"
msgid_plural "Layer {1} ({2} rotations)"
msgstr[0] ""
msgstr[1] ""

#: Sources/Web/SchedulePage.swift
msgid "One-off shifts"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Overrides"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "This schedule could not be drawn for this window: {1}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "{1} — schedule"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "The same stretches as a table"
msgstr ""

#: Sources/Web/SchedulePage.swift Sources/Web/WebPage.swift
msgid "Schedules"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Nobody on duty"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Timeline"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "← Previous"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Today"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Next →"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "View in:"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "Schedule zone ({1})"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Browser zone"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Add a rotation or swap"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Changes to this schedule"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Who"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Action"
msgstr ""

#: Sources/Web/SchedulePage.swift
msgid "Override…"
msgstr ""

#: Sources/Web/ServicePage.swift Sources/Web/WebPage.swift
msgid "Services"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "No services yet: an admin adds them in a definition file."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "policy {1}"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "No such service"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "There is no service named “{1}”."
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "All services"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Pages through the escalation policy {1}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "It runs again {1} time after its last step."
msgid_plural "It runs again {1} times after its last step."
msgstr[0] ""
msgstr[1] ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Team {1}."
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Times in {1}."
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "Paged now"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "If a page started now"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "The policy could not be worked out now: {1}"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "Step"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "At"
msgstr ""

#: Sources/Web/ServicePage.swift Sources/Web/WebPage.swift
msgid "Pages"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "How"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Step {1}"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Step {1}, repeat {2}"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "in turn"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "no change planned"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Nobody: the page still waits {1} min"
msgstr ""

#: Sources/Web/ServicePage.swift
msgid "named in the step"
msgstr ""

#: Sources/Web/SignIn.swift
msgid "A token from roster-server token create (the demo writes roster-data/admin.token). This browser keeps a session, not the token; signing out ends it."
msgstr ""

#: Sources/Web/SignIn.swift Sources/Web/WebApp.swift
msgid "That token is not valid (wrong, revoked or expired)."
msgstr ""

#: Sources/Web/SignIn.swift Sources/Web/SignInWithProvider.swift
msgid "This server holds as many sessions as it may; try again later."
msgstr ""

#: Sources/Web/SignIn.swift
msgid "Refused"
msgstr ""

#: Sources/Web/SignIn.swift
msgid "This change did not come from this server’s own page (its CSRF check failed). Reload the page and try again."
msgstr ""

#: Sources/Web/SignIn.swift Sources/Web/WebApp.swift
msgid "Not signed in"
msgstr ""

#: Sources/Web/SignIn.swift
msgid "Sign in to make changes."
msgstr ""

#: Sources/Web/SignInWithProvider.swift
msgid "Signed in"
msgstr ""

#: Sources/Web/SignInWithProvider.swift
msgid "Continue"
msgstr ""

#: Sources/Web/SignInWithProvider.swift
msgid "This sign-in was started in another browser. Start again from the sign-in page."
msgstr ""

#: Sources/Web/SignInWithProvider.swift
msgid "Sign-in refused"
msgstr ""

#: Sources/Web/TimelineWindow.swift
msgid "1 week"
msgstr ""

#: Sources/Web/TimelineWindow.swift
msgid "2 weeks"
msgstr ""

#: Sources/Web/TimelineWindow.swift
msgid "1 month"
msgstr ""

#: Sources/Web/TimelineWindow.swift
msgid "span is 1w, 2w or 1m"
msgstr ""

#: Sources/Web/TimelineWindow.swift
msgid "tz is schedule, utc or a zone name such as Europe/Berlin"
msgstr ""

#: Sources/Web/TimelineWindow.swift
msgid "the schedule’s zone is unknown here"
msgstr ""

#: Sources/Web/TimelineWindow.swift
msgid "start is a date, YYYY-MM-DD"
msgstr ""

#: Sources/Web/WebApp.swift
msgid "Not here"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebApp.swift
msgid "This page does not take {1} requests."
msgstr ""

#: Sources/Web/WebApp.swift
msgid "Unknown grouping"
msgstr ""

#: Sources/Web/WebApp.swift
msgid "Group people by position or team."
msgstr ""

#: Sources/Web/WebApp.swift
msgid "Sign in with your token to read this server."
msgstr ""

#: Sources/Web/WebApp.swift
msgid "Starting"
msgstr ""

#: Sources/Web/WebApp.swift
msgid "The server is starting: try again in a moment."
msgstr ""

#: Sources/Web/WebApp.swift
msgid "No such schedule"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebApp.swift
msgid "There is no schedule named “{1}”."
msgstr ""

#: Sources/Web/WebApp.swift
msgid "All schedules"
msgstr ""

#: Sources/Web/WebPage.swift
msgid "Skip to content"
msgstr ""

#: Sources/Web/WebPage.swift
msgid "admin"
msgstr ""

#: Sources/Web/WebPage.swift
msgid "reader"
msgstr ""

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebPage.swift
msgid "Signed in: {1} ({2})"
msgstr ""

#: Sources/Web/WebPage.swift
msgid "Sign out"
msgstr ""

#: Sources/Web/WebPage.swift
msgid "Language"
msgstr ""

#: Sources/Web/WebPage.swift
msgid "As the browser asks"
msgstr ""

#: Sources/Web/WebPage.swift
msgid "Change"
msgstr ""
"""#

    static let de = #"""
# The web app's messages in German.
msgid ""
msgstr ""
"Project-Id-Version: roster\n"
"PO-Revision-Date: 2026-11-28 17:00+0000\n"
"Last-Translator: Roster <roster@localhost>\n"
"Language-Team: Roster <roster@localhost>\n"
"Language: de\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "No schedule “{1}”. Schedules: {2}"
msgstr "Kein Dienstplan „{1}“. Dienstpläne: {2}"

#: Sources/Notifications/Chat/ChatCommands.swift
msgid "/oncall: who is on call on every schedule; /oncall SCHEDULE; /oncall next SCHEDULE; /oncall me. Add --public to answer in the channel."
msgstr "/oncall: wer in jedem Dienstplan Dienst hat; /oncall DIENSTPLAN; /oncall next DIENSTPLAN; /oncall me. Mit --public antwortet es im Kanal."

#: Sources/Notifications/Chat/ChatCommands.swift
msgid "There are no schedules yet."
msgstr "Es gibt noch keine Dienstpläne."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "… and {1} more schedules"
msgstr "… und {1} weitere Dienstpläne"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Nobody else is planned on {1}."
msgstr "Sonst ist niemand in {1} eingeplant."

#: Sources/Notifications/Chat/ChatCommands.swift
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "nobody"
msgstr "niemand"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Next on call for {1}: {2} from {3}"
msgstr "Als Nächstes im Dienst für {1}: {2} ab {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Roster does not know your {1} handle ({2}): an admin adds it with {3}."
msgstr "Roster kennt Ihr {1}-Handle nicht ({2}): ein Admin fügt es hinzu mit {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is on call for {2} until {3}"
msgid_plural "{1} are on call for {2} until {3}"
msgstr[0] "{1} hat Dienst in {2} bis {3}"
msgstr[1] "{1} haben Dienst in {2} bis {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} is on call for {2}"
msgid_plural "{1} are on call for {2}"
msgstr[0] "{1} hat Dienst in {2}"
msgstr[1] "{1} haben Dienst in {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is not on call now; next on call for {2} from {3}."
msgstr "{1} hat gerade keinen Dienst; als Nächstes in {2} ab {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is not on call now, nor planned to be in the next year."
msgstr "{1} hat gerade keinen Dienst und ist im nächsten Jahr nicht eingeplant."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Reminder ({1}): {2} is on call for {3} from {4} to {5}"
msgstr "Erinnerung ({1}): {2} hat Dienst in {3} von {4} bis {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody is on call for {1} from {2} on"
msgstr "Niemand hat Dienst in {1} ab {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody is on call for {1} from {2} to {3}"
msgstr "Niemand hat Dienst in {1} von {2} bis {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} has time off but is on call for {2} from {3} to {4}"
msgstr "{1} ist abwesend, hat aber Dienst in {2} von {3} bis {4}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody on the schedule is free then."
msgstr "Niemand im Dienstplan ist dann frei."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Free then, fewest hours first: {1}"
msgstr "Dann frei, wenigste Stunden zuerst: {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Roster test post for webhook {1}: this channel will get Roster's posts."
msgstr "Roster-Testnachricht für Webhook {1}: dieser Kanal bekommt die Nachrichten von Roster."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "override by {1}"
msgstr "Vertretung durch {1}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "override"
msgstr "Vertretung"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "swap"
msgstr "Tausch"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "cover request taken"
msgstr "Vertretungsanfrage übernommen"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "duty taken"
msgstr "Dienst übernommen"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "handoff"
msgstr "Wechsel"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "changed by {1}"
msgstr "geändert von {1}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "plan changed"
msgstr "Plan geändert"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody"
msgstr "Niemand"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} is on call for {2} until {3}; next: {4}"
msgid_plural "{1} are on call for {2} until {3}; next: {4}"
msgstr[0] "{1} hat Dienst in {2} bis {3}; danach: {4}"
msgstr[1] "{1} haben Dienst in {2} bis {3}; danach: {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "({1})"
msgstr "({1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s shifts changed (by {2}):"
msgstr "Schichten von {1} geändert (von {2}):"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• gained {1}: {2} to {3}"
msgstr "• hinzu {1}: {2} bis {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• lost {1}: {2} to {3}"
msgstr "• weg {1}: {2} bis {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• moved {1}: {2} to {3}"
msgstr "• verschoben {1}: {2} bis {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "(was {1})"
msgstr "(vorher {1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "… and {1} more"
msgstr "… und {1} weitere"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Someone"
msgstr "Jemand"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} took {2}'s cover request on {3}: {4} to {5}"
msgstr "{1} hat die Vertretungsanfrage von {2} in {3} übernommen: {4} bis {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} cancelled their cover request on {2}: {3} to {4}"
msgstr "{1} hat die Vertretungsanfrage in {2} zurückgezogen: {3} bis {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s cover request on {2} expired with nobody taking it: {3} to {4}"
msgstr "Die Vertretungsanfrage von {1} in {2} ist abgelaufen, niemand hat sie übernommen: {3} bis {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} backed out: {2}'s cover request on {3} is open again: {4} to {5}"
msgstr "{1} ist zurückgetreten: die Vertretungsanfrage von {2} in {3} ist wieder offen: {4} bis {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s cover request on {2} is open again: {3} to {4}"
msgstr "Die Vertretungsanfrage von {1} in {2} ist wieder offen: {3} bis {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} asks for cover on {2}: {3} to {4}"
msgstr "{1} sucht eine Vertretung in {2}: {3} bis {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "(“{1}”)"
msgstr "(„{1}“)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Escalation policy {1} was removed"
msgstr "Die Eskalationsrichtlinie {1} wurde entfernt"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}, step {2} pages {3} until {4}"
msgstr "{1}, Schritt {2} alarmiert {3} bis {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}, step {2} pages {3}"
msgstr "{1}, Schritt {2} alarmiert {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Escalation policy {1} changed; its steps page the same people"
msgstr "Die Eskalationsrichtlinie {1} wurde geändert; ihre Schritte alarmieren dieselben Personen"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid " and "
msgstr " und "

#: Sources/Web/ChangesPage.swift
msgid "The audit log is for admins, as over the protocol."
msgstr "Das Änderungsprotokoll ist Admins vorbehalten, wie über das Protokoll."

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/PersonPage.swift Sources/Web/WebApp.swift
msgid "Busy"
msgstr "Ausgelastet"

#: Sources/Web/ChangesPage.swift
msgid "The audit log could not be read now: try again in a moment."
msgstr "Das Änderungsprotokoll konnte gerade nicht gelesen werden: bitte gleich noch einmal versuchen."

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/WebApp.swift
msgid "The server is busy: try again in a moment."
msgstr "Der Server ist ausgelastet: bitte gleich noch einmal versuchen."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Changes — {1}"
msgstr "Änderungen — {1}"

#: Sources/Web/ChangesPage.swift
msgid "Changes"
msgstr "Änderungen"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift Sources/Web/OnCallPage.swift
#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
#: Sources/Web/SchedulePage.swift
msgid "Times in {1}"
msgstr "Zeiten in {1}"

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/ScheduleEditPage.swift
msgid "Back to the timeline"
msgstr "Zurück zur Zeitleiste"

#: Sources/Web/ChangesPage.swift
msgid "No changes recorded."
msgstr "Keine Änderungen verzeichnet."

#: Sources/Web/ChangesPage.swift
msgid "server"
msgstr "Server"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "{1}, revision {2}"
msgstr "{1}, Revision {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "“{1}”"
msgstr "„{1}“"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Older changes are left out (the newest {1} are shown)."
msgstr "Ältere Änderungen sind ausgelassen (die neuesten {1} werden gezeigt)."

#: Sources/Web/ChangesPage.swift
msgid "Schedule created"
msgstr "Dienstplan angelegt"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Override added: {1}"
msgstr "Vertretung hinzugefügt: {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Override removed: {1}"
msgstr "Vertretung entfernt: {1}"

#: Sources/Web/ChangesPage.swift
msgid "Rotations changed"
msgstr "Rotationen geändert"

#: Sources/Web/ChangesPage.swift
msgid "Details changed"
msgstr "Angaben geändert"

#: Sources/Web/ChangesPage.swift
msgid "Definition saved"
msgstr "Definition gespeichert"

#: Sources/Web/ChangesPage.swift
msgid "Schedule deleted"
msgstr "Dienstplan gelöscht"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "One-off shift added: {1}, {2} – {3}"
msgstr "Einzelschicht hinzugefügt: {1}, {2} – {3}"

#: Sources/Web/ChangesPage.swift
msgid "One-off shift removed"
msgstr "Einzelschicht entfernt"

#: Sources/Web/ChangesPage.swift
msgid "Changed"
msgstr "Geändert"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift Sources/Web/SchedulePage.swift
msgid "{1} for {2}"
msgstr "{1} für {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "without {1}"
msgstr "ohne {1}"

#: Sources/Web/CommandLineSignIn.swift
msgid "Sign in to roster-client"
msgstr "roster-client anmelden"

#: Sources/Web/CommandLineSignIn.swift
msgid "You are signed in with a token that names nobody: roster-client can act only for a person."
msgstr "Sie sind mit einem Token angemeldet, das keine Person nennt: roster-client kann nur für eine Person handeln."

#: Sources/Web/CommandLineSignIn.swift
msgid "No roster-client is waiting for this code (it is wrong, used or older than 10 minutes)."
msgstr "Kein roster-client wartet auf diesen Code (er ist falsch, benutzt oder älter als 10 Minuten)."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CommandLineSignIn.swift
msgid "A roster-client asks to act as {1} ({2}) with the code {3}. Allow it only if you started it."
msgstr "Ein roster-client möchte als {1} ({2}) handeln, mit dem Code {3}. Erlauben Sie es nur, wenn Sie ihn gestartet haben."

#: Sources/Web/CommandLineSignIn.swift
msgid "Allow"
msgstr "Erlauben"

#: Sources/Web/CommandLineSignIn.swift
msgid "Deny"
msgstr "Ablehnen"

#: Sources/Web/CommandLineSignIn.swift
msgid "Sign in first; you come back here to allow the roster-client."
msgstr "Melden Sie sich zuerst an; danach kommen Sie hierher zurück, um den roster-client zu erlauben."

#: Sources/Web/CommandLineSignIn.swift Sources/Web/SignIn.swift
msgid "Sign in with your organisation’s account"
msgstr "Mit dem Konto Ihrer Organisation anmelden"

#: Sources/Web/CommandLineSignIn.swift
msgid "Done: go back to your terminal."
msgstr "Erledigt: Gehen Sie zurück zu Ihrem Terminal."

#: Sources/Web/CommandLineSignIn.swift
msgid "Refused: the roster-client gets nothing."
msgstr "Abgelehnt: Der roster-client bekommt nichts."

#: Sources/Web/CommandLineSignIn.swift Sources/Web/PersonPage.swift
#: Sources/Web/SignInWithProvider.swift Sources/Web/WebPage.swift
msgid "My shifts"
msgstr "Meine Schichten"

#: Sources/Web/ConflictsSection.swift
msgid "Conflicts: on duty during time off"
msgstr "Konflikte: im Dienst während Abwesenheit"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "has time off but is on duty from {1} to {2}."
msgstr "ist abwesend, hat aber Dienst von {1} bis {2}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "has time off ({1}) but is on duty from {2} to {3}."
msgstr "ist abwesend ({1}), hat aber Dienst von {2} bis {3}."

#: Sources/Web/ConflictsSection.swift
msgid "Nobody on this schedule is free then."
msgstr "Niemand in diesem Dienstplan ist dann frei."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "{1} ({2} h)"
msgstr "{1} ({2} Std.)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "Free, fewest hours around it first: {1}."
msgstr "Frei, die mit den wenigsten Stunden drumherum zuerst: {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "Cover with {1}"
msgstr "Mit {1} besetzen"

#: Sources/Web/CoverRequestsSection.swift
msgid "Cover requests"
msgstr "Vertretungsanfragen"

#: Sources/Web/CoverRequestsSection.swift
msgid "No open cover requests."
msgstr "Keine offenen Vertretungsanfragen."

#: Sources/Web/CoverRequestsSection.swift
msgid "Who asks"
msgstr "Wer fragt"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/OverrideForm.swift
#: Sources/Web/PushPage.swift Sources/Web/SchedulePage.swift
msgid "From"
msgstr "Von"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/PushPage.swift
msgid "To"
msgstr "Bis"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/PersonalTokensPage.swift
msgid "For"
msgstr "Für"

#: Sources/Web/CoverRequestsSection.swift
msgid "State"
msgstr "Stand"

#: Sources/Web/CoverRequestsSection.swift
msgid "Note"
msgstr "Notiz"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/ServicePage.swift
msgid "everyone"
msgstr "alle"

#: Sources/Web/CoverRequestsSection.swift
msgid "open"
msgstr "offen"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CoverRequestsSection.swift
msgid "taken by {1}"
msgstr "übernommen von {1}"

#: Sources/Web/CoverRequestsSection.swift
msgid "cancelled"
msgstr "zurückgezogen"

#: Sources/Web/CoverRequestsSection.swift
msgid "expired"
msgstr "abgelaufen"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CoverRequestsSection.swift
msgid "Cover requests on {1}"
msgstr "Vertretungsanfragen für {1}"

#: Sources/Web/CoverRequestsSection.swift
msgid "Take"
msgstr "Übernehmen"

#: Sources/Web/CoverRequestsSection.swift
msgid "Decline"
msgstr "Ablehnen"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/OverrideForm.swift
msgid "Cancel"
msgstr "Abbrechen"

#: Sources/Web/CoverRequestsSection.swift
msgid "Back out"
msgstr "Zurücktreten"

#: Sources/Web/CoverRequestsSection.swift
msgid "Not a step"
msgstr "Kein Schritt"

#: Sources/Web/CoverRequestsSection.swift
msgid "Say which request and which step: take, decline, cancel or back out."
msgstr "Bitte Anfrage und Schritt angeben: übernehmen, ablehnen, abbrechen oder zurücktreten."

#: Sources/Web/CoverRequestsSection.swift
msgid "Not done"
msgstr "Nicht ausgeführt"

#: Sources/Web/CoverRequestsSection.swift
msgid "Back to the schedule"
msgstr "Zurück zum Dienstplan"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "People — {1}"
msgstr "Personen — {1}"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
#: Sources/Web/WebPage.swift
msgid "People"
msgstr "Personen"

#: Sources/Web/DirectoryPage.swift
msgid "Search"
msgstr "Suchen"

#: Sources/Web/DirectoryPage.swift
msgid "Group by"
msgstr "Gruppieren nach"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
msgid "Position"
msgstr "Position"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
msgid "Team"
msgstr "Team"

#: Sources/Web/DirectoryPage.swift
msgid "Show"
msgstr "Anzeigen"

#: Sources/Web/DirectoryPage.swift
msgid "No employees found"
msgstr "Keine Mitarbeitenden gefunden"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "No one matches “{1}”"
msgstr "Niemand passt zu „{1}“"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "{1} of {2} person; revision {3}."
msgid_plural "{1} of {2} people; revision {3}."
msgstr[0] "{1} von {2} Person; Revision {3}."
msgstr[1] "{1} von {2} Personen; Revision {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "unknown zone {1}"
msgstr "unbekannte Zeitzone {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} is a date and time, YYYY-MM-DDTHH:MM (in {2})"
msgstr "{1} ist Datum und Uhrzeit, JJJJ-MM-TTTHH:MM (in {2})"

#: Sources/Web/FormParts.swift
msgid "What it changes"
msgstr "Was sich ändert"

#: Sources/Web/FormParts.swift
msgid "Nobody gains or loses duty: this changes nothing that is planned."
msgstr "Niemand bekommt oder verliert Dienst: das ändert nichts am Geplanten."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} gains {2} – {3}"
msgstr "{1} bekommt {2} – {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} loses {2} – {3}"
msgstr "{1} verliert {2} – {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "and {1} more stretch"
msgid_plural "and {1} more stretches"
msgstr[0] "und {1} weiterer Abschnitt"
msgstr[1] "und {1} weitere Abschnitte"

#: Sources/Web/FormParts.swift
msgid "Nothing is changed until you confirm."
msgstr "Nichts wird geändert, bevor Sie bestätigen."

#: Sources/Web/HoursPage.swift
msgid "Business hours"
msgstr "Geschäftszeiten"

#: Sources/Web/HoursPage.swift
msgid "Outside business hours"
msgstr "Außerhalb der Geschäftszeiten"

#: Sources/Web/HoursPage.swift
msgid "Night"
msgstr "Nacht"

#: Sources/Web/HoursPage.swift
msgid "Weekend"
msgstr "Wochenende"

#: Sources/Web/HoursPage.swift
msgid "Holiday"
msgstr "Feiertag"

#: Sources/Web/HoursPage.swift
msgid "Person"
msgstr "Person"

#: Sources/Web/HoursPage.swift
msgid "Total"
msgstr "Gesamt"

#: Sources/Web/HoursPage.swift
msgid "Business"
msgstr "Geschäftszeit"

#: Sources/Web/HoursPage.swift
msgid "Outside"
msgstr "Außerhalb"

#: Sources/Web/HoursPage.swift Sources/Web/OverrideForm.swift
msgid "Override"
msgstr "Vertretung"

#: Sources/Web/HoursPage.swift
msgid "Cover taken"
msgstr "Vertretung übernommen"

#: Sources/Web/HoursPage.swift
msgid "Cover given"
msgstr "Vertretung abgegeben"

#: Sources/Web/HoursPage.swift
msgid "Periods"
msgstr "Zeiträume"

#: Sources/Web/HoursPage.swift Sources/Web/SchedulePage.swift
msgid "Stretches"
msgstr "Abschnitte"

#: Sources/Web/HoursPage.swift
msgid "Longest"
msgstr "Längster"

#: Sources/Web/HoursPage.swift
msgid "Shortest rest"
msgstr "Kürzeste Ruhe"

#: Sources/Web/HoursPage.swift
msgid "Reports of everyone’s hours are for admins, as over the protocol."
msgstr "Berichte über die Stunden aller sind Admins vorbehalten, wie über das Protokoll."

#: Sources/Web/HoursPage.swift Sources/Web/WebApp.swift
msgid "Not a window"
msgstr "Kein Zeitfenster"

#: Sources/Web/HoursPage.swift
msgid "days is 7, 28 or 90."
msgstr "days ist 7, 28 oder 90."

#: Sources/Web/HoursPage.swift
msgid "No report"
msgstr "Kein Bericht"

#: Sources/Web/HoursPage.swift
msgid "The report could not be made now: try again in a moment."
msgstr "Der Bericht konnte gerade nicht erstellt werden: bitte gleich noch einmal versuchen."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Hours — {1}"
msgstr "Stunden — {1}"

#: Sources/Web/HoursPage.swift Sources/Web/SchedulePage.swift
msgid "Hours and fairness"
msgstr "Stunden und Fairness"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Days and hours counted in {1}"
msgstr "Tage und Stunden gezählt in {1}"

#: Sources/Web/HoursPage.swift
msgid "Window"
msgstr "Zeitfenster"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Last {1} days"
msgstr "Letzte {1} Tage"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "From {1} to {2}; before {3} as the schedule is defined now (the duty record begins then)."
msgstr "Von {1} bis {2}; vor {3} so, wie der Dienstplan jetzt definiert ist (die Dienstaufzeichnung beginnt dann)."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "From {1} to {2}."
msgstr "Von {1} bis {2}."

#: Sources/Web/HoursPage.swift
msgid "Coverage"
msgstr "Abdeckung"

#: Sources/Web/HoursPage.swift
msgid "Gaps"
msgstr "Lücken"

#: Sources/Web/HoursPage.swift
msgid "Equity"
msgstr "Gleichverteilung"

#: Sources/Web/HoursPage.swift
msgid "Balance (Grafana OnCall’s score)"
msgstr "Ausgewogenheit (Wert von Grafana OnCall)"

#: Sources/Web/HoursPage.swift
msgid "Nobody was on duty in this window."
msgstr "In diesem Zeitfenster hatte niemand Dienst."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "{1}: {2} h, {3}"
msgstr "{1}: {2} Std., {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} s)"
msgstr "(in {1} s)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} min {2} s)"
msgstr "(in {1} Min. {2} s)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} h {2} min)"
msgstr "(in {1} Std. {2} Min.)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} day)"
msgid_plural "(in {1} days)"
msgstr[0] "(in {1} Tag)"
msgstr[1] "(in {1} Tagen)"

#: Sources/Web/LiveScript.swift
msgid "less than a minute ago"
msgstr "vor weniger als einer Minute"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} minute ago"
msgid_plural "{1} minutes ago"
msgstr[0] "vor {1} Minute"
msgstr[1] "vor {1} Minuten"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} hour ago"
msgid_plural "{1} hours ago"
msgstr[0] "vor {1} Stunde"
msgstr[1] "vor {1} Stunden"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} day ago"
msgid_plural "{1} days ago"
msgstr[0] "vor {1} Tag"
msgstr[1] "vor {1} Tagen"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "No connection — showing data from {1}"
msgstr "Keine Verbindung — Daten von {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "No connection — showing data from {1} (no plan kept beyond this: it may be out of date)"
msgstr "Keine Verbindung — Daten von {1} (darüber hinaus ist kein Plan gespeichert: vielleicht veraltet)"

#: Sources/Web/LiveScript.swift
msgid "Live"
msgstr "Live"

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Nobody is on duty."
msgstr "Niemand hat Dienst."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Until {1}"
msgstr "Bis {1}"

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "No change planned."
msgstr "Kein Wechsel geplant."

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Next"
msgstr "Als Nächstes"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "since {1}"
msgstr "seit {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "from {1}"
msgstr "ab {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "Browser zone ({1})"
msgstr "Zeitzone des Browsers ({1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift
msgid "On call now — {1}"
msgstr "Jetzt im Dienst — {1}"

#: Sources/Web/OnCallPage.swift Sources/Web/WebPage.swift
msgid "On call now"
msgstr "Jetzt im Dienst"

#: Sources/Web/OnCallPage.swift Sources/Web/SchedulePage.swift
msgid "No schedules yet."
msgstr "Noch keine Dienstpläne."

#: Sources/Web/OnCallPage.swift
msgid "This schedule could not be worked out now."
msgstr "Dieser Dienstplan konnte gerade nicht berechnet werden."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift Sources/Web/PersonPage.swift
#: Sources/Web/SchedulePage.swift Sources/Web/ServicePage.swift
msgid "As of {1}, revision {2}."
msgstr "Stand {1}, Revision {2}."

#: Sources/Web/OnCallPage.swift
msgid "Nobody new."
msgstr "Niemand Neues."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift
msgid "{1} stays on."
msgid_plural "{1} stay on."
msgstr[0] "{1} bleibt im Dienst."
msgstr[1] "{1} bleiben im Dienst."

#: Sources/Web/OverrideForm.swift Sources/Web/PersonalTokensPage.swift
#: Sources/Web/SchedulePage.swift Sources/Web/ServicePage.swift
msgid "Until"
msgstr "Bis"

#: Sources/Web/OverrideForm.swift
msgid "Until must be after From"
msgstr "„Bis“ muss nach „Von“ liegen"

#: Sources/Web/OverrideForm.swift
msgid "Choose who is on duty instead"
msgstr "Bitte wählen, wer stattdessen Dienst hat"

#: Sources/Web/OverrideForm.swift
msgid "Sign in to make changes"
msgstr "Anmelden, um zu ändern"

#: Sources/Web/OverrideForm.swift
msgid "Overrides are made by an admin, or by a person for themselves where the schedule allows it."
msgstr "Vertretungen trägt ein Admin ein, oder eine Person für sich selbst, wo der Dienstplan es erlaubt."

#: Sources/Web/OverrideForm.swift Sources/Web/PersonPage.swift
#: Sources/Web/ScheduleEditPage.swift Sources/Web/SignIn.swift
#: Sources/Web/SignInWithProvider.swift Sources/Web/WebApp.swift
#: Sources/Web/WebPage.swift
msgid "Sign in"
msgstr "Anmelden"

#: Sources/Web/OverrideForm.swift
msgid "Not allowed"
msgstr "Nicht erlaubt"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "Only an admin may change {1}."
msgstr "Nur ein Admin darf {1} ändern."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "{1} does not let people put themselves on duty; ask an admin."
msgstr "{1} erlaubt nicht, sich selbst einzutragen; bitte einen Admin fragen."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "Override — {1}"
msgstr "Vertretung — {1}"

#: Sources/Web/OverrideForm.swift
msgid "Sign in to make changes from this page (a bearer token can use roster-client admin override)."
msgstr "Zum Ändern auf dieser Seite anmelden (mit einem Bearer-Token geht roster-client admin override)."

#: Sources/Web/OverrideForm.swift
msgid "Instead of"
msgstr "Anstelle von"

#: Sources/Web/OverrideForm.swift
msgid "(nobody: add a person)"
msgstr "(niemand: eine Person hinzufügen)"

#: Sources/Web/OverrideForm.swift
msgid "On duty"
msgstr "Im Dienst"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Choose a person"
msgstr "Person wählen"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Reason"
msgstr "Grund"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Preview"
msgstr "Vorschau"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Confirm"
msgstr "Bestätigen"

#: Sources/Web/PersonPage.swift
msgid "No such person"
msgstr "Keine solche Person"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Nobody here has the id “{1}”."
msgstr "Niemand hier hat die ID „{1}“."

#: Sources/Web/PersonPage.swift
msgid "Next on duty"
msgstr "Nächste Dienste"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Sign in with a token that names you (an admin makes one on the server: {1}) to see your shifts."
msgstr "Mit einem Token anmelden, das Sie nennt (ein Admin erstellt es auf dem Server: {1}), um Ihre Schichten zu sehen."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "This token names no person here: ask an admin for one made with {1}."
msgstr "Dieses Token nennt hier keine Person: bitte einen Admin um eines, erstellt mit {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "My shifts — {1}"
msgstr "Meine Schichten — {1}"

#: Sources/Web/PersonPage.swift
msgid "Upcoming"
msgstr "Demnächst"

#: Sources/Web/PersonPage.swift
msgid "Recent"
msgstr "Zuletzt"

#: Sources/Web/PersonPage.swift
msgid "Calendar"
msgstr "Kalender"

#: Sources/Web/PersonPage.swift
msgid "A private feed of your shifts for your calendar app (iCalendar). The link is shown once."
msgstr "Ein privater Feed Ihrer Schichten für Ihre Kalender-App (iCalendar). Der Link wird einmal gezeigt."

#: Sources/Web/PersonPage.swift
msgid "Make my calendar link"
msgstr "Meinen Kalender-Link erstellen"

#: Sources/Web/PersonPage.swift Sources/Web/PushPage.swift
msgid "Notifications"
msgstr "Benachrichtigungen"

#: Sources/Web/PersonPage.swift
msgid "on your phone or in this browser"
msgstr "auf Ihrem Telefon oder in diesem Browser"

#: Sources/Web/PersonPage.swift Sources/Web/PersonalTokensPage.swift
msgid "My tokens"
msgstr "Meine Tokens"

#: Sources/Web/PersonPage.swift
msgid "for scripts and status lights"
msgstr "für Skripte und Statusleuchten"

#: Sources/Web/PersonPage.swift
msgid "No duty planned."
msgstr "Kein Dienst geplant."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "On duty now on {1}, until {2}."
msgstr "Jetzt im Dienst in {1}, bis {2}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Next on duty: {1}, {2} – {3}."
msgstr "Nächster Dienst: {1}, {2} – {3}."

#: Sources/Web/PersonPage.swift
msgid "Projects"
msgstr "Projekte"

#: Sources/Web/PersonPage.swift
msgid "Contact"
msgstr "Kontakt"

#: Sources/Web/PersonPage.swift
msgid "Photo"
msgstr "Foto"

#: Sources/Web/PersonPage.swift
msgid "Open photo"
msgstr "Foto öffnen"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "The schedules could not be worked out now: {1}"
msgstr "Die Dienstpläne konnten gerade nicht berechnet werden: {1}"

#: Sources/Web/PersonPage.swift
msgid "No duty in the last 14 days."
msgstr "Kein Dienst in den letzten 14 Tagen."

#: Sources/Web/PersonPage.swift
msgid "No duty in the next 28 days."
msgstr "Kein Dienst in den nächsten 28 Tagen."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "{1} – {2}"
msgstr "{1} – {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "before {1} – {2}"
msgstr "vor {1} – {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "{1} – {2} and on"
msgstr "{1} – {2} und danach"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "before {1} – {2} and on"
msgstr "vor {1} – {2} und danach"

#: Sources/Web/PersonPage.swift
msgid "on duty now"
msgstr "jetzt im Dienst"

#: Sources/Web/PersonPage.swift
msgid "This token names no person here."
msgstr "Dieses Token nennt hier keine Person."

#: Sources/Web/PersonPage.swift
msgid "My calendar link"
msgstr "Mein Kalender-Link"

#: Sources/Web/PersonPage.swift
msgid "Subscribe to this address in your calendar app. It is shown only now; keep it private."
msgstr "Abonnieren Sie diese Adresse in Ihrer Kalender-App. Sie wird nur jetzt gezeigt; halten Sie sie geheim."

#: Sources/Web/PersonPage.swift
msgid "Open in my calendar app"
msgstr "In meiner Kalender-App öffnen"

#: Sources/Web/PersonPage.swift
msgid "No calendar link"
msgstr "Kein Kalender-Link"

#: Sources/Web/PersonPage.swift
msgid "Try again in a moment."
msgstr "Bitte gleich noch einmal versuchen."

#: Sources/Web/PersonalTokensPage.swift
msgid "Sign in to see your tokens."
msgstr "Melden Sie sich an, um Ihre Tokens zu sehen."

#: Sources/Web/PersonalTokensPage.swift
msgid "Tokens of your own for scripts, calendar programs and status lights: each reads, or also does what you may do yourself, until it expires or you revoke it."
msgstr "Eigene Tokens für Skripte, Kalenderprogramme und Statusleuchten: Jedes liest oder tut auch, was Sie selbst tun dürfen, bis es abläuft oder Sie es widerrufen."

#: Sources/Web/PersonalTokensPage.swift
msgid "Make a token"
msgstr "Token erstellen"

#: Sources/Web/PersonalTokensPage.swift
msgid "What it is for"
msgstr "Wofür es ist"

#: Sources/Web/PersonalTokensPage.swift
msgid "Days it lasts"
msgstr "Gültig für Tage"

#: Sources/Web/PersonalTokensPage.swift
msgid "Reading only"
msgstr "Nur lesen"

#: Sources/Web/PersonalTokensPage.swift
msgid "Make the token"
msgstr "Das Token erstellen"

#: Sources/Web/PersonalTokensPage.swift
msgid "No tokens."
msgstr "Keine Tokens."

#: Sources/Web/PersonalTokensPage.swift Sources/Web/SignIn.swift
msgid "Token"
msgstr "Token"

#: Sources/Web/PersonalTokensPage.swift
msgid "May"
msgstr "Darf"

#: Sources/Web/PersonalTokensPage.swift
msgid "read"
msgstr "lesen"

#: Sources/Web/PersonalTokensPage.swift
msgid "read and act"
msgstr "lesen und handeln"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonalTokensPage.swift
msgid "read, act on {1}"
msgstr "lesen, handeln in {1}"

#: Sources/Web/PersonalTokensPage.swift
msgid "Revoke"
msgstr "Widerrufen"

#: Sources/Web/PersonalTokensPage.swift
msgid "A token lasts from 1 to 365 days."
msgstr "Ein Token gilt 1 bis 365 Tage."

#: Sources/Web/PersonalTokensPage.swift
msgid "My new token"
msgstr "Mein neues Token"

#: Sources/Web/PersonalTokensPage.swift
msgid "Copy it now: it is shown only this once. Keep it private."
msgstr "Kopieren Sie es jetzt: Es wird nur dieses eine Mal angezeigt. Halten Sie es geheim."

#: Sources/Web/PushPage.swift
msgid "Sign in to be notified on your phone."
msgstr "Melden Sie sich an, um auf Ihrem Telefon benachrichtigt zu werden."

#: Sources/Web/PushPage.swift
msgid "Your phone or this browser tells you when you go on duty and when someone asks you to cover."
msgstr "Ihr Telefon oder dieser Browser sagt Ihnen, wann Ihr Dienst beginnt und wann jemand Sie um Vertretung bittet."

#: Sources/Web/PushPage.swift
msgid "This browser may not show notifications: allow them in its settings."
msgstr "Dieser Browser darf keine Benachrichtigungen zeigen: erlauben Sie sie in seinen Einstellungen."

#: Sources/Web/PushPage.swift
msgid "This device could not be subscribed:"
msgstr "Dieses Gerät konnte nicht angemeldet werden:"

#: Sources/Web/PushPage.swift
msgid "This device was subscribed again with the server's new key."
msgstr "Dieses Gerät wurde mit dem neuen Schlüssel des Servers neu angemeldet."

#: Sources/Web/PushPage.swift
msgid "Notify me on this device"
msgstr "Auf diesem Gerät benachrichtigen"

#: Sources/Web/PushPage.swift
msgid "My devices"
msgstr "Meine Geräte"

#: Sources/Web/PushPage.swift
msgid "No devices yet."
msgstr "Noch keine Geräte."

#: Sources/Web/PushPage.swift
msgid "Device"
msgstr "Gerät"

#: Sources/Web/PushPage.swift Sources/Web/ServicePage.swift
msgid "Through"
msgstr "Über"

#: Sources/Web/PushPage.swift
msgid "stopped: it kept failing"
msgstr "gestoppt: es schlug immer wieder fehl"

#: Sources/Web/PushPage.swift
msgid "Remove"
msgstr "Entfernen"

#: Sources/Web/PushPage.swift
msgid "What I am told"
msgstr "Worüber ich benachrichtigt werde"

#: Sources/Web/PushPage.swift
msgid "Going on duty"
msgstr "Dienstbeginn"

#: Sources/Web/PushPage.swift
msgid "Cover asked of me"
msgstr "Vertretung, um die ich gebeten werde"

#: Sources/Web/PushPage.swift
msgid "My requests taken or expired"
msgstr "Meine Anfragen übernommen oder abgelaufen"

#: Sources/Web/PushPage.swift
msgid "Duty during my time off"
msgstr "Dienst während meiner Abwesenheit"

#: Sources/Web/PushPage.swift
msgid "Changes to my shifts"
msgstr "Änderungen an meinen Schichten"

#: Sources/Web/PushPage.swift
msgid "Quiet hours (going on duty still rings)"
msgstr "Ruhezeit (Dienstbeginn meldet sich trotzdem)"

#: Sources/Web/PushPage.swift
msgid "Time zone"
msgstr "Zeitzone"

#: Sources/Web/PushPage.swift
msgid "Save"
msgstr "Speichern"

#: Sources/Web/ScheduleEditPage.swift
msgid "Name the people of the rotation, one per line"
msgstr "Bitte die Personen der Rotation nennen, eine pro Zeile"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "At most {1} people (lines) in a rotation"
msgstr "Höchstens {1} Personen (Zeilen) in einer Rotation"

#: Sources/Web/ScheduleEditPage.swift
msgid "Every is a whole number from 1 to 1000"
msgstr "„Alle“ ist eine ganze Zahl von 1 bis 1000"

#: Sources/Web/ScheduleEditPage.swift
msgid "The handoff unit is hours, days, weeks or months"
msgstr "Die Einheit des Wechsels ist Stunden, Tage, Wochen oder Monate"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "The layer is a whole number from 0 to {1}"
msgstr "Die Ebene ist eine ganze Zahl von 0 bis {1}"

#: Sources/Web/ScheduleEditPage.swift
msgid "First handoff"
msgstr "Erster Wechsel"

#: Sources/Web/ScheduleEditPage.swift
msgid "Choose two different people"
msgstr "Bitte zwei verschiedene Personen wählen"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person’s duty from"
msgstr "Dienst der ersten Person von"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person’s until"
msgstr "Erste Person bis"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person’s duty from"
msgstr "Dienst der zweiten Person von"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person’s until"
msgstr "Zweite Person bis"

#: Sources/Web/ScheduleEditPage.swift
msgid "Each until must be after its from"
msgstr "Jedes „bis“ muss nach seinem „von“ liegen"

#: Sources/Web/ScheduleEditPage.swift Sources/Web/WebApp.swift
msgid "Admins only"
msgstr "Nur für Admins"

#: Sources/Web/ScheduleEditPage.swift
msgid "Rotations and swaps are changed by an admin, signed in here."
msgstr "Rotationen und Tausche ändert ein hier angemeldeter Admin."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "Change — {1}"
msgstr "Ändern — {1}"

#: Sources/Web/ScheduleEditPage.swift
msgid "Change the schedule"
msgstr "Dienstplan ändern"

#: Sources/Web/ScheduleEditPage.swift
msgid "Add a rotation"
msgstr "Rotation hinzufügen"

#: Sources/Web/ScheduleEditPage.swift
msgid "People, in turn order"
msgstr "Personen, in Reihenfolge"

#: Sources/Web/ScheduleEditPage.swift
msgid "One per line (full name or id); “Ada Lovelace + Alan Turing” share a turn"
msgstr "Eine pro Zeile (voller Name oder ID); „Ada Lovelace + Alan Turing“ teilen sich einen Turnus"

#: Sources/Web/ScheduleEditPage.swift
msgid "Hand off every"
msgstr "Wechsel alle"

#: Sources/Web/ScheduleEditPage.swift
msgid "Unit"
msgstr "Einheit"

#: Sources/Web/ScheduleEditPage.swift
msgid "hours"
msgstr "Stunden"

#: Sources/Web/ScheduleEditPage.swift
msgid "days"
msgstr "Tage"

#: Sources/Web/ScheduleEditPage.swift
msgid "weeks"
msgstr "Wochen"

#: Sources/Web/ScheduleEditPage.swift
msgid "months"
msgstr "Monate"

#: Sources/Web/ScheduleEditPage.swift
msgid "Layer (the highest with anyone on duty wins)"
msgstr "Ebene (die höchste mit jemandem im Dienst gilt)"

#: Sources/Web/ScheduleEditPage.swift
msgid "Swap duty"
msgstr "Dienst tauschen"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person"
msgstr "Erste Person"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person"
msgstr "Zweite Person"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "Days from {1} to {2}"
msgstr "Tage von {1} bis {2}"

#: Sources/Web/SchedulePage+Timeline.swift
msgid "Nothing in this window."
msgstr "Nichts in diesem Zeitfenster."

#: Sources/Web/SchedulePage+Timeline.swift
msgid "Now"
msgstr "Jetzt"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "More than {1} stretches: the first ones are drawn."
msgstr "Mehr als {1} Abschnitte: die ersten werden gezeichnet."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "Override: {1}"
msgstr "Vertretung: {1}"

#: Sources/Web/SchedulePage.swift
msgid "Final schedule"
msgstr "Endgültiger Plan"

#: Sources/Web/SchedulePage.swift
msgid "Temporary schedules"
msgstr "Vorübergehende Pläne"

#: Sources/Web/SchedulePage.swift
msgid "Time off"
msgstr "Abwesenheit"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "{1} off"
msgstr "{1} abwesend"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "Layer {1} ({2} rotation)"
msgid_plural "Layer {1} ({2} rotations)"
msgstr[0] "Ebene {1} ({2} Rotation)"
msgstr[1] "Ebene {1} ({2} Rotationen)"

#: Sources/Web/SchedulePage.swift
msgid "One-off shifts"
msgstr "Einzelschichten"

#: Sources/Web/SchedulePage.swift
msgid "Overrides"
msgstr "Vertretungen"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "This schedule could not be drawn for this window: {1}"
msgstr "Dieser Dienstplan konnte für dieses Zeitfenster nicht gezeichnet werden: {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "{1} — schedule"
msgstr "{1} — Dienstplan"

#: Sources/Web/SchedulePage.swift
msgid "The same stretches as a table"
msgstr "Dieselben Abschnitte als Tabelle"

#: Sources/Web/SchedulePage.swift Sources/Web/WebPage.swift
msgid "Schedules"
msgstr "Dienstpläne"

#: Sources/Web/SchedulePage.swift
msgid "Nobody on duty"
msgstr "Niemand im Dienst"

#: Sources/Web/SchedulePage.swift
msgid "Timeline"
msgstr "Zeitleiste"

#: Sources/Web/SchedulePage.swift
msgid "← Previous"
msgstr "← Zurück"

#: Sources/Web/SchedulePage.swift
msgid "Today"
msgstr "Heute"

#: Sources/Web/SchedulePage.swift
msgid "Next →"
msgstr "Weiter →"

#: Sources/Web/SchedulePage.swift
msgid "View in:"
msgstr "Anzeigen in:"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "Schedule zone ({1})"
msgstr "Zeitzone des Plans ({1})"

#: Sources/Web/SchedulePage.swift
msgid "Browser zone"
msgstr "Zeitzone des Browsers"

#: Sources/Web/SchedulePage.swift
msgid "Add a rotation or swap"
msgstr "Rotation oder Tausch hinzufügen"

#: Sources/Web/SchedulePage.swift
msgid "Changes to this schedule"
msgstr "Änderungen an diesem Plan"

#: Sources/Web/SchedulePage.swift
msgid "Who"
msgstr "Wer"

#: Sources/Web/SchedulePage.swift
msgid "Action"
msgstr "Aktion"

#: Sources/Web/SchedulePage.swift
msgid "Override…"
msgstr "Vertretung…"

#: Sources/Web/ServicePage.swift Sources/Web/WebPage.swift
msgid "Services"
msgstr "Dienste"

#: Sources/Web/ServicePage.swift
msgid "No services yet: an admin adds them in a definition file."
msgstr "Noch keine Dienste: Ein Admin legt sie in einer Definitionsdatei an."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "policy {1}"
msgstr "Richtlinie {1}"

#: Sources/Web/ServicePage.swift
msgid "No such service"
msgstr "Kein solcher Dienst"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "There is no service named “{1}”."
msgstr "Es gibt keinen Dienst namens „{1}“."

#: Sources/Web/ServicePage.swift
msgid "All services"
msgstr "Alle Dienste"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Pages through the escalation policy {1}."
msgstr "Alarmiert über die Eskalationsrichtlinie {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "It runs again {1} time after its last step."
msgid_plural "It runs again {1} times after its last step."
msgstr[0] "Nach dem letzten Schritt läuft sie noch {1}-mal."
msgstr[1] "Nach dem letzten Schritt läuft sie noch {1}-mal."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Team {1}."
msgstr "Team {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Times in {1}."
msgstr "Zeiten in {1}."

#: Sources/Web/ServicePage.swift
msgid "Paged now"
msgstr "Jetzt alarmiert"

#: Sources/Web/ServicePage.swift
msgid "If a page started now"
msgstr "Wenn jetzt ein Alarm begänne"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "The policy could not be worked out now: {1}"
msgstr "Die Richtlinie ließ sich gerade nicht auswerten: {1}"

#: Sources/Web/ServicePage.swift
msgid "Step"
msgstr "Schritt"

#: Sources/Web/ServicePage.swift
msgid "At"
msgstr "Um"

#: Sources/Web/ServicePage.swift Sources/Web/WebPage.swift
msgid "Pages"
msgstr "Seiten"

#: Sources/Web/ServicePage.swift
msgid "How"
msgstr "Wie"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Step {1}"
msgstr "Schritt {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Step {1}, repeat {2}"
msgstr "Schritt {1}, Wiederholung {2}"

#: Sources/Web/ServicePage.swift
msgid "in turn"
msgstr "reihum"

#: Sources/Web/ServicePage.swift
msgid "no change planned"
msgstr "keine Änderung geplant"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Nobody: the page still waits {1} min"
msgstr "Niemand: Der Alarm wartet trotzdem {1} Min."

#: Sources/Web/ServicePage.swift
msgid "named in the step"
msgstr "im Schritt genannt"

#: Sources/Web/SignIn.swift
msgid "A token from roster-server token create (the demo writes roster-data/admin.token). This browser keeps a session, not the token; signing out ends it."
msgstr "Ein Token von roster-server token create (die Demo schreibt roster-data/admin.token). Dieser Browser behält eine Sitzung, nicht das Token; Abmelden beendet sie."

#: Sources/Web/SignIn.swift Sources/Web/WebApp.swift
msgid "That token is not valid (wrong, revoked or expired)."
msgstr "Dieses Token ist nicht gültig (falsch, widerrufen oder abgelaufen)."

#: Sources/Web/SignIn.swift Sources/Web/SignInWithProvider.swift
msgid "This server holds as many sessions as it may; try again later."
msgstr "Dieser Server hält so viele Sitzungen, wie er darf; bitte später noch einmal versuchen."

#: Sources/Web/SignIn.swift
msgid "Refused"
msgstr "Abgelehnt"

#: Sources/Web/SignIn.swift
msgid "This change did not come from this server’s own page (its CSRF check failed). Reload the page and try again."
msgstr "Diese Änderung kam nicht von einer Seite dieses Servers (die CSRF-Prüfung schlug fehl). Seite neu laden und noch einmal versuchen."

#: Sources/Web/SignIn.swift Sources/Web/WebApp.swift
msgid "Not signed in"
msgstr "Nicht angemeldet"

#: Sources/Web/SignIn.swift
msgid "Sign in to make changes."
msgstr "Zum Ändern anmelden."

#: Sources/Web/SignInWithProvider.swift
msgid "Signed in"
msgstr "Angemeldet"

#: Sources/Web/SignInWithProvider.swift
msgid "Continue"
msgstr "Weiter"

#: Sources/Web/SignInWithProvider.swift
msgid "This sign-in was started in another browser. Start again from the sign-in page."
msgstr "Diese Anmeldung wurde in einem anderen Browser begonnen. Beginnen Sie erneut auf der Anmeldeseite."

#: Sources/Web/SignInWithProvider.swift
msgid "Sign-in refused"
msgstr "Anmeldung abgelehnt"

#: Sources/Web/TimelineWindow.swift
msgid "1 week"
msgstr "1 Woche"

#: Sources/Web/TimelineWindow.swift
msgid "2 weeks"
msgstr "2 Wochen"

#: Sources/Web/TimelineWindow.swift
msgid "1 month"
msgstr "1 Monat"

#: Sources/Web/TimelineWindow.swift
msgid "span is 1w, 2w or 1m"
msgstr "span ist 1w, 2w oder 1m"

#: Sources/Web/TimelineWindow.swift
msgid "tz is schedule, utc or a zone name such as Europe/Berlin"
msgstr "tz ist schedule, utc oder ein Zonenname wie Europe/Berlin"

#: Sources/Web/TimelineWindow.swift
msgid "the schedule’s zone is unknown here"
msgstr "die Zeitzone des Plans ist hier unbekannt"

#: Sources/Web/TimelineWindow.swift
msgid "start is a date, YYYY-MM-DD"
msgstr "start ist ein Datum, JJJJ-MM-TT"

#: Sources/Web/WebApp.swift
msgid "Not here"
msgstr "Nicht hier"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebApp.swift
msgid "This page does not take {1} requests."
msgstr "Diese Seite nimmt keine {1}-Anfragen an."

#: Sources/Web/WebApp.swift
msgid "Unknown grouping"
msgstr "Unbekannte Gruppierung"

#: Sources/Web/WebApp.swift
msgid "Group people by position or team."
msgstr "Personen nach Position oder Team gruppieren."

#: Sources/Web/WebApp.swift
msgid "Sign in with your token to read this server."
msgstr "Mit Ihrem Token anmelden, um diesen Server zu lesen."

#: Sources/Web/WebApp.swift
msgid "Starting"
msgstr "Startet"

#: Sources/Web/WebApp.swift
msgid "The server is starting: try again in a moment."
msgstr "Der Server startet: bitte gleich noch einmal versuchen."

#: Sources/Web/WebApp.swift
msgid "No such schedule"
msgstr "Kein solcher Dienstplan"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebApp.swift
msgid "There is no schedule named “{1}”."
msgstr "Es gibt keinen Dienstplan namens „{1}“."

#: Sources/Web/WebApp.swift
msgid "All schedules"
msgstr "Alle Dienstpläne"

#: Sources/Web/WebPage.swift
msgid "Skip to content"
msgstr "Zum Inhalt springen"

#: Sources/Web/WebPage.swift
msgid "admin"
msgstr "Admin"

#: Sources/Web/WebPage.swift
msgid "reader"
msgstr "Leser"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebPage.swift
msgid "Signed in: {1} ({2})"
msgstr "Angemeldet: {1} ({2})"

#: Sources/Web/WebPage.swift
msgid "Sign out"
msgstr "Abmelden"

#: Sources/Web/WebPage.swift
msgid "Language"
msgstr "Sprache"

#: Sources/Web/WebPage.swift
msgid "As the browser asks"
msgstr "Wie der Browser wünscht"

#: Sources/Web/WebPage.swift
msgid "Change"
msgstr "Ändern"
"""#

    static let fr = #"""
# The web app's messages in French.
msgid ""
msgstr ""
"Project-Id-Version: roster\n"
"PO-Revision-Date: 2026-11-28 17:00+0000\n"
"Last-Translator: Roster <roster@localhost>\n"
"Language-Team: Roster <roster@localhost>\n"
"Language: fr\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;\n"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "No schedule “{1}”. Schedules: {2}"
msgstr "Pas de planning « {1} ». Plannings : {2}"

#: Sources/Notifications/Chat/ChatCommands.swift
msgid "/oncall: who is on call on every schedule; /oncall SCHEDULE; /oncall next SCHEDULE; /oncall me. Add --public to answer in the channel."
msgstr "/oncall : qui est de garde sur chaque planning ; /oncall PLANNING ; /oncall next PLANNING ; /oncall me. Ajoutez --public pour répondre dans le canal."

#: Sources/Notifications/Chat/ChatCommands.swift
msgid "There are no schedules yet."
msgstr "Il n’y a pas encore de planning."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "… and {1} more schedules"
msgstr "… et {1} autres plannings"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Nobody else is planned on {1}."
msgstr "Personne d’autre n’est prévu sur {1}."

#: Sources/Notifications/Chat/ChatCommands.swift
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "nobody"
msgstr "personne"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Next on call for {1}: {2} from {3}"
msgstr "Prochaine garde sur {1} : {2} à partir de {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Roster does not know your {1} handle ({2}): an admin adds it with {3}."
msgstr "Roster ne connaît pas votre identifiant {1} ({2}) : un admin l’ajoute avec {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is on call for {2} until {3}"
msgid_plural "{1} are on call for {2} until {3}"
msgstr[0] "{1} est de garde sur {2} jusqu’à {3}"
msgstr[1] "{1} sont de garde sur {2} jusqu’à {3}"
msgstr[2] "{1} sont de garde sur {2} jusqu’à {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} is on call for {2}"
msgid_plural "{1} are on call for {2}"
msgstr[0] "{1} est de garde sur {2}"
msgstr[1] "{1} sont de garde sur {2}"
msgstr[2] "{1} sont de garde sur {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is not on call now; next on call for {2} from {3}."
msgstr "{1} n’est pas de garde maintenant ; prochaine garde sur {2} à partir de {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is not on call now, nor planned to be in the next year."
msgstr "{1} n’est pas de garde maintenant, et n’est pas prévu·e dans l’année qui vient."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Reminder ({1}): {2} is on call for {3} from {4} to {5}"
msgstr "Rappel ({1}) : {2} est de garde sur {3} de {4} à {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody is on call for {1} from {2} on"
msgstr "Personne n’est de garde sur {1} à partir de {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody is on call for {1} from {2} to {3}"
msgstr "Personne n’est de garde sur {1} de {2} à {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} has time off but is on call for {2} from {3} to {4}"
msgstr "{1} est absent·e mais de garde sur {2} de {3} à {4}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody on the schedule is free then."
msgstr "Personne du planning n’est libre à ce moment-là."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Free then, fewest hours first: {1}"
msgstr "Libres à ce moment-là, le moins d’heures d’abord : {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Roster test post for webhook {1}: this channel will get Roster's posts."
msgstr "Message de test de Roster pour le webhook {1} : ce canal recevra les messages de Roster."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "override by {1}"
msgstr "remplacement par {1}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "override"
msgstr "remplacement"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "swap"
msgstr "échange"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "cover request taken"
msgstr "demande de remplacement prise"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "duty taken"
msgstr "garde prise"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "handoff"
msgstr "relève"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "changed by {1}"
msgstr "modifié par {1}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "plan changed"
msgstr "planning modifié"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody"
msgstr "Personne"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} is on call for {2} until {3}; next: {4}"
msgid_plural "{1} are on call for {2} until {3}; next: {4}"
msgstr[0] "{1} est de garde sur {2} jusqu’à {3} ; ensuite : {4}"
msgstr[1] "{1} sont de garde sur {2} jusqu’à {3} ; ensuite : {4}"
msgstr[2] "{1} sont de garde sur {2} jusqu’à {3} ; ensuite : {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "({1})"
msgstr "({1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s shifts changed (by {2}):"
msgstr "Les gardes de {1} ont changé (par {2}) :"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• gained {1}: {2} to {3}"
msgstr "• en plus {1} : {2} à {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• lost {1}: {2} to {3}"
msgstr "• en moins {1} : {2} à {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• moved {1}: {2} to {3}"
msgstr "• déplacée {1} : {2} à {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "(was {1})"
msgstr "(avant {1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "… and {1} more"
msgstr "… et {1} de plus"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Someone"
msgstr "Quelqu’un"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} took {2}'s cover request on {3}: {4} to {5}"
msgstr "{1} a pris la demande de remplacement de {2} sur {3} : {4} à {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} cancelled their cover request on {2}: {3} to {4}"
msgstr "{1} a annulé sa demande de remplacement sur {2} : {3} à {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s cover request on {2} expired with nobody taking it: {3} to {4}"
msgstr "La demande de remplacement de {1} sur {2} a expiré sans preneur : {3} à {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} backed out: {2}'s cover request on {3} is open again: {4} to {5}"
msgstr "{1} s’est retiré·e : la demande de remplacement de {2} sur {3} est de nouveau ouverte : {4} à {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s cover request on {2} is open again: {3} to {4}"
msgstr "La demande de remplacement de {1} sur {2} est de nouveau ouverte : {3} à {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} asks for cover on {2}: {3} to {4}"
msgstr "{1} demande un remplacement sur {2} : {3} à {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "(“{1}”)"
msgstr "(« {1} »)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Escalation policy {1} was removed"
msgstr "La politique d’escalade {1} a été supprimée"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}, step {2} pages {3} until {4}"
msgstr "{1}, étape {2} : alerte {3} jusqu’à {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}, step {2} pages {3}"
msgstr "{1}, étape {2} : alerte {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Escalation policy {1} changed; its steps page the same people"
msgstr "La politique d’escalade {1} a changé ; ses étapes alertent les mêmes personnes"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid " and "
msgstr " et "

#: Sources/Web/ChangesPage.swift
msgid "The audit log is for admins, as over the protocol."
msgstr "Le journal d’audit est réservé aux admins, comme par le protocole."

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/PersonPage.swift Sources/Web/WebApp.swift
msgid "Busy"
msgstr "Occupé"

#: Sources/Web/ChangesPage.swift
msgid "The audit log could not be read now: try again in a moment."
msgstr "Le journal d’audit n’a pas pu être lu : réessayez dans un instant."

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/WebApp.swift
msgid "The server is busy: try again in a moment."
msgstr "Le serveur est occupé : réessayez dans un instant."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Changes — {1}"
msgstr "Modifications — {1}"

#: Sources/Web/ChangesPage.swift
msgid "Changes"
msgstr "Modifications"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift Sources/Web/OnCallPage.swift
#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
#: Sources/Web/SchedulePage.swift
msgid "Times in {1}"
msgstr "Heures en {1}"

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/ScheduleEditPage.swift
msgid "Back to the timeline"
msgstr "Retour à la chronologie"

#: Sources/Web/ChangesPage.swift
msgid "No changes recorded."
msgstr "Aucune modification enregistrée."

#: Sources/Web/ChangesPage.swift
msgid "server"
msgstr "serveur"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "{1}, revision {2}"
msgstr "{1}, révision {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "“{1}”"
msgstr "« {1} »"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Older changes are left out (the newest {1} are shown)."
msgstr "Les modifications plus anciennes sont omises (les {1} plus récentes sont affichées)."

#: Sources/Web/ChangesPage.swift
msgid "Schedule created"
msgstr "Planning créé"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Override added: {1}"
msgstr "Remplacement ajouté : {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Override removed: {1}"
msgstr "Remplacement supprimé : {1}"

#: Sources/Web/ChangesPage.swift
msgid "Rotations changed"
msgstr "Rotations modifiées"

#: Sources/Web/ChangesPage.swift
msgid "Details changed"
msgstr "Détails modifiés"

#: Sources/Web/ChangesPage.swift
msgid "Definition saved"
msgstr "Définition enregistrée"

#: Sources/Web/ChangesPage.swift
msgid "Schedule deleted"
msgstr "Planning supprimé"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "One-off shift added: {1}, {2} – {3}"
msgstr "Garde ponctuelle ajoutée : {1}, {2} – {3}"

#: Sources/Web/ChangesPage.swift
msgid "One-off shift removed"
msgstr "Garde ponctuelle supprimée"

#: Sources/Web/ChangesPage.swift
msgid "Changed"
msgstr "Modifié"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift Sources/Web/SchedulePage.swift
msgid "{1} for {2}"
msgstr "{1} à la place de {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "without {1}"
msgstr "sans {1}"

#: Sources/Web/CommandLineSignIn.swift
msgid "Sign in to roster-client"
msgstr "Connecter roster-client"

#: Sources/Web/CommandLineSignIn.swift
msgid "You are signed in with a token that names nobody: roster-client can act only for a person."
msgstr "Vous êtes connecté avec un jeton qui ne nomme personne : roster-client ne peut agir que pour une personne."

#: Sources/Web/CommandLineSignIn.swift
msgid "No roster-client is waiting for this code (it is wrong, used or older than 10 minutes)."
msgstr "Aucun roster-client n’attend ce code (il est faux, déjà utilisé ou vieux de plus de 10 minutes)."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CommandLineSignIn.swift
msgid "A roster-client asks to act as {1} ({2}) with the code {3}. Allow it only if you started it."
msgstr "Un roster-client demande à agir en tant que {1} ({2}) avec le code {3}. Ne l’autorisez que si vous l’avez lancé."

#: Sources/Web/CommandLineSignIn.swift
msgid "Allow"
msgstr "Autoriser"

#: Sources/Web/CommandLineSignIn.swift
msgid "Deny"
msgstr "Refuser"

#: Sources/Web/CommandLineSignIn.swift
msgid "Sign in first; you come back here to allow the roster-client."
msgstr "Connectez-vous d’abord ; vous revenez ici pour autoriser le roster-client."

#: Sources/Web/CommandLineSignIn.swift Sources/Web/SignIn.swift
msgid "Sign in with your organisation’s account"
msgstr "Se connecter avec le compte de votre organisation"

#: Sources/Web/CommandLineSignIn.swift
msgid "Done: go back to your terminal."
msgstr "C’est fait : retournez à votre terminal."

#: Sources/Web/CommandLineSignIn.swift
msgid "Refused: the roster-client gets nothing."
msgstr "Refusé : le roster-client n’obtient rien."

#: Sources/Web/CommandLineSignIn.swift Sources/Web/PersonPage.swift
#: Sources/Web/SignInWithProvider.swift Sources/Web/WebPage.swift
msgid "My shifts"
msgstr "Mes gardes"

#: Sources/Web/ConflictsSection.swift
msgid "Conflicts: on duty during time off"
msgstr "Conflits : de garde pendant une absence"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "has time off but is on duty from {1} to {2}."
msgstr "est absent·e mais de garde du {1} au {2}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "has time off ({1}) but is on duty from {2} to {3}."
msgstr "est absent·e ({1}) mais de garde du {2} au {3}."

#: Sources/Web/ConflictsSection.swift
msgid "Nobody on this schedule is free then."
msgstr "Personne de ce planning n’est libre à ce moment-là."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "{1} ({2} h)"
msgstr "{1} ({2} h)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "Free, fewest hours around it first: {1}."
msgstr "Libres, ceux qui ont le moins d’heures autour d’abord : {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "Cover with {1}"
msgstr "Remplacer par {1}"

#: Sources/Web/CoverRequestsSection.swift
msgid "Cover requests"
msgstr "Demandes de remplacement"

#: Sources/Web/CoverRequestsSection.swift
msgid "No open cover requests."
msgstr "Aucune demande de remplacement ouverte."

#: Sources/Web/CoverRequestsSection.swift
msgid "Who asks"
msgstr "Demandeur"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/OverrideForm.swift
#: Sources/Web/PushPage.swift Sources/Web/SchedulePage.swift
msgid "From"
msgstr "Du"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/PushPage.swift
msgid "To"
msgstr "Au"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/PersonalTokensPage.swift
msgid "For"
msgstr "Pour"

#: Sources/Web/CoverRequestsSection.swift
msgid "State"
msgstr "État"

#: Sources/Web/CoverRequestsSection.swift
msgid "Note"
msgstr "Note"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/ServicePage.swift
msgid "everyone"
msgstr "tout le monde"

#: Sources/Web/CoverRequestsSection.swift
msgid "open"
msgstr "ouverte"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CoverRequestsSection.swift
msgid "taken by {1}"
msgstr "prise par {1}"

#: Sources/Web/CoverRequestsSection.swift
msgid "cancelled"
msgstr "annulée"

#: Sources/Web/CoverRequestsSection.swift
msgid "expired"
msgstr "expirée"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CoverRequestsSection.swift
msgid "Cover requests on {1}"
msgstr "Demandes de remplacement sur {1}"

#: Sources/Web/CoverRequestsSection.swift
msgid "Take"
msgstr "Prendre"

#: Sources/Web/CoverRequestsSection.swift
msgid "Decline"
msgstr "Refuser"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/OverrideForm.swift
msgid "Cancel"
msgstr "Annuler"

#: Sources/Web/CoverRequestsSection.swift
msgid "Back out"
msgstr "Se retirer"

#: Sources/Web/CoverRequestsSection.swift
msgid "Not a step"
msgstr "Pas une étape"

#: Sources/Web/CoverRequestsSection.swift
msgid "Say which request and which step: take, decline, cancel or back out."
msgstr "Indiquez quelle demande et quelle étape : prendre, refuser, annuler ou se retirer."

#: Sources/Web/CoverRequestsSection.swift
msgid "Not done"
msgstr "Non effectué"

#: Sources/Web/CoverRequestsSection.swift
msgid "Back to the schedule"
msgstr "Retour au planning"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "People — {1}"
msgstr "Personnes — {1}"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
#: Sources/Web/WebPage.swift
msgid "People"
msgstr "Personnes"

#: Sources/Web/DirectoryPage.swift
msgid "Search"
msgstr "Rechercher"

#: Sources/Web/DirectoryPage.swift
msgid "Group by"
msgstr "Grouper par"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
msgid "Position"
msgstr "Poste"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
msgid "Team"
msgstr "Équipe"

#: Sources/Web/DirectoryPage.swift
msgid "Show"
msgstr "Afficher"

#: Sources/Web/DirectoryPage.swift
msgid "No employees found"
msgstr "Aucun employé trouvé"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "No one matches “{1}”"
msgstr "Personne ne correspond à « {1} »"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "{1} of {2} person; revision {3}."
msgid_plural "{1} of {2} people; revision {3}."
msgstr[0] "{1} sur {2} personne ; révision {3}."
msgstr[1] "{1} sur {2} de personnes ; révision {3}."
msgstr[2] "{1} sur {2} personnes ; révision {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "unknown zone {1}"
msgstr "fuseau horaire inconnu {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} is a date and time, YYYY-MM-DDTHH:MM (in {2})"
msgstr "{1} est une date et une heure, AAAA-MM-JJTHH:MM (en {2})"

#: Sources/Web/FormParts.swift
msgid "What it changes"
msgstr "Ce que cela change"

#: Sources/Web/FormParts.swift
msgid "Nobody gains or loses duty: this changes nothing that is planned."
msgstr "Personne ne gagne ni ne perd de garde : cela ne change rien au planning."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} gains {2} – {3}"
msgstr "{1} prend {2} – {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} loses {2} – {3}"
msgstr "{1} perd {2} – {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "and {1} more stretch"
msgid_plural "and {1} more stretches"
msgstr[0] "et {1} période de plus"
msgstr[1] "et {1} de périodes de plus"
msgstr[2] "et {1} périodes de plus"

#: Sources/Web/FormParts.swift
msgid "Nothing is changed until you confirm."
msgstr "Rien n’est modifié avant votre confirmation."

#: Sources/Web/HoursPage.swift
msgid "Business hours"
msgstr "Heures ouvrées"

#: Sources/Web/HoursPage.swift
msgid "Outside business hours"
msgstr "Hors heures ouvrées"

#: Sources/Web/HoursPage.swift
msgid "Night"
msgstr "Nuit"

#: Sources/Web/HoursPage.swift
msgid "Weekend"
msgstr "Week-end"

#: Sources/Web/HoursPage.swift
msgid "Holiday"
msgstr "Jour férié"

#: Sources/Web/HoursPage.swift
msgid "Person"
msgstr "Personne"

#: Sources/Web/HoursPage.swift
msgid "Total"
msgstr "Total"

#: Sources/Web/HoursPage.swift
msgid "Business"
msgstr "Ouvrées"

#: Sources/Web/HoursPage.swift
msgid "Outside"
msgstr "Hors"

#: Sources/Web/HoursPage.swift Sources/Web/OverrideForm.swift
msgid "Override"
msgstr "Remplacement"

#: Sources/Web/HoursPage.swift
msgid "Cover taken"
msgstr "Remplacements pris"

#: Sources/Web/HoursPage.swift
msgid "Cover given"
msgstr "Remplacements cédés"

#: Sources/Web/HoursPage.swift
msgid "Periods"
msgstr "Périodes"

#: Sources/Web/HoursPage.swift Sources/Web/SchedulePage.swift
msgid "Stretches"
msgstr "Périodes de garde"

#: Sources/Web/HoursPage.swift
msgid "Longest"
msgstr "La plus longue"

#: Sources/Web/HoursPage.swift
msgid "Shortest rest"
msgstr "Repos le plus court"

#: Sources/Web/HoursPage.swift
msgid "Reports of everyone’s hours are for admins, as over the protocol."
msgstr "Les rapports des heures de chacun sont réservés aux admins, comme par le protocole."

#: Sources/Web/HoursPage.swift Sources/Web/WebApp.swift
msgid "Not a window"
msgstr "Pas une fenêtre"

#: Sources/Web/HoursPage.swift
msgid "days is 7, 28 or 90."
msgstr "days vaut 7, 28 ou 90."

#: Sources/Web/HoursPage.swift
msgid "No report"
msgstr "Pas de rapport"

#: Sources/Web/HoursPage.swift
msgid "The report could not be made now: try again in a moment."
msgstr "Le rapport n’a pas pu être établi : réessayez dans un instant."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Hours — {1}"
msgstr "Heures — {1}"

#: Sources/Web/HoursPage.swift Sources/Web/SchedulePage.swift
msgid "Hours and fairness"
msgstr "Heures et équité"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Days and hours counted in {1}"
msgstr "Jours et heures comptés en {1}"

#: Sources/Web/HoursPage.swift
msgid "Window"
msgstr "Fenêtre"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Last {1} days"
msgstr "{1} derniers jours"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "From {1} to {2}; before {3} as the schedule is defined now (the duty record begins then)."
msgstr "Du {1} au {2} ; avant le {3}, selon le planning tel qu’il est défini aujourd’hui (l’historique des gardes commence alors)."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "From {1} to {2}."
msgstr "Du {1} au {2}."

#: Sources/Web/HoursPage.swift
msgid "Coverage"
msgstr "Couverture"

#: Sources/Web/HoursPage.swift
msgid "Gaps"
msgstr "Trous"

#: Sources/Web/HoursPage.swift
msgid "Equity"
msgstr "Équité"

#: Sources/Web/HoursPage.swift
msgid "Balance (Grafana OnCall’s score)"
msgstr "Équilibre (score de Grafana OnCall)"

#: Sources/Web/HoursPage.swift
msgid "Nobody was on duty in this window."
msgstr "Personne n’était de garde dans cette fenêtre."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "{1}: {2} h, {3}"
msgstr "{1} : {2} h, {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} s)"
msgstr "(dans {1} s)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} min {2} s)"
msgstr "(dans {1} min {2} s)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} h {2} min)"
msgstr "(dans {1} h {2} min)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} day)"
msgid_plural "(in {1} days)"
msgstr[0] "(dans {1} jour)"
msgstr[1] "(dans {1} de jours)"
msgstr[2] "(dans {1} jours)"

#: Sources/Web/LiveScript.swift
msgid "less than a minute ago"
msgstr "il y a moins d’une minute"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} minute ago"
msgid_plural "{1} minutes ago"
msgstr[0] "il y a {1} minute"
msgstr[1] "il y a {1} de minutes"
msgstr[2] "il y a {1} minutes"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} hour ago"
msgid_plural "{1} hours ago"
msgstr[0] "il y a {1} heure"
msgstr[1] "il y a {1} d’heures"
msgstr[2] "il y a {1} heures"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} day ago"
msgid_plural "{1} days ago"
msgstr[0] "il y a {1} jour"
msgstr[1] "il y a {1} de jours"
msgstr[2] "il y a {1} jours"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "No connection — showing data from {1}"
msgstr "Pas de connexion — données d’{1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "No connection — showing data from {1} (no plan kept beyond this: it may be out of date)"
msgstr "Pas de connexion — données d’{1} (aucun plan gardé au-delà : elles peuvent être périmées)"

#: Sources/Web/LiveScript.swift
msgid "Live"
msgstr "En direct"

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Nobody is on duty."
msgstr "Personne n’est de garde."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Until {1}"
msgstr "Jusqu’au {1}"

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "No change planned."
msgstr "Aucun changement prévu."

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Next"
msgstr "Ensuite"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "since {1}"
msgstr "depuis {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "from {1}"
msgstr "à partir de {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "Browser zone ({1})"
msgstr "Fuseau du navigateur ({1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift
msgid "On call now — {1}"
msgstr "De garde maintenant — {1}"

#: Sources/Web/OnCallPage.swift Sources/Web/WebPage.swift
msgid "On call now"
msgstr "De garde maintenant"

#: Sources/Web/OnCallPage.swift Sources/Web/SchedulePage.swift
msgid "No schedules yet."
msgstr "Aucun planning pour l’instant."

#: Sources/Web/OnCallPage.swift
msgid "This schedule could not be worked out now."
msgstr "Ce planning n’a pas pu être calculé pour l’instant."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift Sources/Web/PersonPage.swift
#: Sources/Web/SchedulePage.swift Sources/Web/ServicePage.swift
msgid "As of {1}, revision {2}."
msgstr "État au {1}, révision {2}."

#: Sources/Web/OnCallPage.swift
msgid "Nobody new."
msgstr "Personne de nouveau."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift
msgid "{1} stays on."
msgid_plural "{1} stay on."
msgstr[0] "{1} reste de garde."
msgstr[1] "{1} restent de garde."
msgstr[2] "{1} restent de garde."

#: Sources/Web/OverrideForm.swift Sources/Web/PersonalTokensPage.swift
#: Sources/Web/SchedulePage.swift Sources/Web/ServicePage.swift
msgid "Until"
msgstr "Jusqu’au"

#: Sources/Web/OverrideForm.swift
msgid "Until must be after From"
msgstr "« Jusqu’au » doit être après « Du »"

#: Sources/Web/OverrideForm.swift
msgid "Choose who is on duty instead"
msgstr "Choisissez qui est de garde à la place"

#: Sources/Web/OverrideForm.swift
msgid "Sign in to make changes"
msgstr "Connectez-vous pour modifier"

#: Sources/Web/OverrideForm.swift
msgid "Overrides are made by an admin, or by a person for themselves where the schedule allows it."
msgstr "Les remplacements sont faits par un admin, ou par une personne pour elle-même si le planning le permet."

#: Sources/Web/OverrideForm.swift Sources/Web/PersonPage.swift
#: Sources/Web/ScheduleEditPage.swift Sources/Web/SignIn.swift
#: Sources/Web/SignInWithProvider.swift Sources/Web/WebApp.swift
#: Sources/Web/WebPage.swift
msgid "Sign in"
msgstr "Se connecter"

#: Sources/Web/OverrideForm.swift
msgid "Not allowed"
msgstr "Non autorisé"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "Only an admin may change {1}."
msgstr "Seul un admin peut modifier {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "{1} does not let people put themselves on duty; ask an admin."
msgstr "{1} ne permet pas de se mettre soi-même de garde ; demandez à un admin."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "Override — {1}"
msgstr "Remplacement — {1}"

#: Sources/Web/OverrideForm.swift
msgid "Sign in to make changes from this page (a bearer token can use roster-client admin override)."
msgstr "Connectez-vous pour modifier depuis cette page (un jeton bearer peut utiliser roster-client admin override)."

#: Sources/Web/OverrideForm.swift
msgid "Instead of"
msgstr "À la place de"

#: Sources/Web/OverrideForm.swift
msgid "(nobody: add a person)"
msgstr "(personne : ajouter une personne)"

#: Sources/Web/OverrideForm.swift
msgid "On duty"
msgstr "De garde"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Choose a person"
msgstr "Choisir une personne"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Reason"
msgstr "Motif"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Preview"
msgstr "Aperçu"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Confirm"
msgstr "Confirmer"

#: Sources/Web/PersonPage.swift
msgid "No such person"
msgstr "Personne introuvable"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Nobody here has the id “{1}”."
msgstr "Personne ici n’a l’identifiant « {1} »."

#: Sources/Web/PersonPage.swift
msgid "Next on duty"
msgstr "Prochaines gardes"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Sign in with a token that names you (an admin makes one on the server: {1}) to see your shifts."
msgstr "Connectez-vous avec un jeton à votre nom (un admin le crée sur le serveur : {1}) pour voir vos gardes."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "This token names no person here: ask an admin for one made with {1}."
msgstr "Ce jeton ne désigne personne ici : demandez à un admin d’en créer un avec {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "My shifts — {1}"
msgstr "Mes gardes — {1}"

#: Sources/Web/PersonPage.swift
msgid "Upcoming"
msgstr "À venir"

#: Sources/Web/PersonPage.swift
msgid "Recent"
msgstr "Récentes"

#: Sources/Web/PersonPage.swift
msgid "Calendar"
msgstr "Calendrier"

#: Sources/Web/PersonPage.swift
msgid "A private feed of your shifts for your calendar app (iCalendar). The link is shown once."
msgstr "Un flux privé de vos gardes pour votre application d’agenda (iCalendar). Le lien n’est affiché qu’une fois."

#: Sources/Web/PersonPage.swift
msgid "Make my calendar link"
msgstr "Créer mon lien d’agenda"

#: Sources/Web/PersonPage.swift Sources/Web/PushPage.swift
msgid "Notifications"
msgstr "Notifications"

#: Sources/Web/PersonPage.swift
msgid "on your phone or in this browser"
msgstr "sur votre téléphone ou dans ce navigateur"

#: Sources/Web/PersonPage.swift Sources/Web/PersonalTokensPage.swift
msgid "My tokens"
msgstr "Mes jetons"

#: Sources/Web/PersonPage.swift
msgid "for scripts and status lights"
msgstr "pour les scripts et les voyants d’état"

#: Sources/Web/PersonPage.swift
msgid "No duty planned."
msgstr "Aucune garde prévue."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "On duty now on {1}, until {2}."
msgstr "De garde maintenant sur {1}, jusqu’au {2}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Next on duty: {1}, {2} – {3}."
msgstr "Prochaine garde : {1}, {2} – {3}."

#: Sources/Web/PersonPage.swift
msgid "Projects"
msgstr "Projets"

#: Sources/Web/PersonPage.swift
msgid "Contact"
msgstr "Contact"

#: Sources/Web/PersonPage.swift
msgid "Photo"
msgstr "Photo"

#: Sources/Web/PersonPage.swift
msgid "Open photo"
msgstr "Ouvrir la photo"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "The schedules could not be worked out now: {1}"
msgstr "Les plannings n’ont pas pu être calculés pour l’instant : {1}"

#: Sources/Web/PersonPage.swift
msgid "No duty in the last 14 days."
msgstr "Aucune garde ces 14 derniers jours."

#: Sources/Web/PersonPage.swift
msgid "No duty in the next 28 days."
msgstr "Aucune garde dans les 28 prochains jours."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "{1} – {2}"
msgstr "{1} – {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "before {1} – {2}"
msgstr "avant {1} – {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "{1} – {2} and on"
msgstr "{1} – {2} et au-delà"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "before {1} – {2} and on"
msgstr "avant {1} – {2} et au-delà"

#: Sources/Web/PersonPage.swift
msgid "on duty now"
msgstr "de garde maintenant"

#: Sources/Web/PersonPage.swift
msgid "This token names no person here."
msgstr "Ce jeton ne désigne personne ici."

#: Sources/Web/PersonPage.swift
msgid "My calendar link"
msgstr "Mon lien d’agenda"

#: Sources/Web/PersonPage.swift
msgid "Subscribe to this address in your calendar app. It is shown only now; keep it private."
msgstr "Abonnez-vous à cette adresse dans votre application d’agenda. Elle n’est affichée que maintenant ; gardez-la privée."

#: Sources/Web/PersonPage.swift
msgid "Open in my calendar app"
msgstr "Ouvrir dans mon application d’agenda"

#: Sources/Web/PersonPage.swift
msgid "No calendar link"
msgstr "Pas de lien d’agenda"

#: Sources/Web/PersonPage.swift
msgid "Try again in a moment."
msgstr "Réessayez dans un instant."

#: Sources/Web/PersonalTokensPage.swift
msgid "Sign in to see your tokens."
msgstr "Connectez-vous pour voir vos jetons."

#: Sources/Web/PersonalTokensPage.swift
msgid "Tokens of your own for scripts, calendar programs and status lights: each reads, or also does what you may do yourself, until it expires or you revoke it."
msgstr "Vos propres jetons pour les scripts, les agendas et les voyants d’état : chacun lit, ou fait aussi ce que vous pouvez faire vous-même, jusqu’à ce qu’il expire ou que vous le révoquiez."

#: Sources/Web/PersonalTokensPage.swift
msgid "Make a token"
msgstr "Créer un jeton"

#: Sources/Web/PersonalTokensPage.swift
msgid "What it is for"
msgstr "À quoi il sert"

#: Sources/Web/PersonalTokensPage.swift
msgid "Days it lasts"
msgstr "Durée en jours"

#: Sources/Web/PersonalTokensPage.swift
msgid "Reading only"
msgstr "Lecture seule"

#: Sources/Web/PersonalTokensPage.swift
msgid "Make the token"
msgstr "Créer le jeton"

#: Sources/Web/PersonalTokensPage.swift
msgid "No tokens."
msgstr "Aucun jeton."

#: Sources/Web/PersonalTokensPage.swift Sources/Web/SignIn.swift
msgid "Token"
msgstr "Jeton"

#: Sources/Web/PersonalTokensPage.swift
msgid "May"
msgstr "Peut"

#: Sources/Web/PersonalTokensPage.swift
msgid "read"
msgstr "lire"

#: Sources/Web/PersonalTokensPage.swift
msgid "read and act"
msgstr "lire et agir"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonalTokensPage.swift
msgid "read, act on {1}"
msgstr "lire, agir sur {1}"

#: Sources/Web/PersonalTokensPage.swift
msgid "Revoke"
msgstr "Révoquer"

#: Sources/Web/PersonalTokensPage.swift
msgid "A token lasts from 1 to 365 days."
msgstr "Un jeton dure de 1 à 365 jours."

#: Sources/Web/PersonalTokensPage.swift
msgid "My new token"
msgstr "Mon nouveau jeton"

#: Sources/Web/PersonalTokensPage.swift
msgid "Copy it now: it is shown only this once. Keep it private."
msgstr "Copiez-le maintenant : il n’est affiché que cette fois. Gardez-le privé."

#: Sources/Web/PushPage.swift
msgid "Sign in to be notified on your phone."
msgstr "Connectez-vous pour être averti sur votre téléphone."

#: Sources/Web/PushPage.swift
msgid "Your phone or this browser tells you when you go on duty and when someone asks you to cover."
msgstr "Votre téléphone ou ce navigateur vous dit quand votre garde commence et quand quelqu'un vous demande de le remplacer."

#: Sources/Web/PushPage.swift
msgid "This browser may not show notifications: allow them in its settings."
msgstr "Ce navigateur ne peut pas afficher de notifications : autorisez-les dans ses réglages."

#: Sources/Web/PushPage.swift
msgid "This device could not be subscribed:"
msgstr "Cet appareil n'a pas pu être abonné :"

#: Sources/Web/PushPage.swift
msgid "This device was subscribed again with the server's new key."
msgstr "Cet appareil a été réabonné avec la nouvelle clé du serveur."

#: Sources/Web/PushPage.swift
msgid "Notify me on this device"
msgstr "M'avertir sur cet appareil"

#: Sources/Web/PushPage.swift
msgid "My devices"
msgstr "Mes appareils"

#: Sources/Web/PushPage.swift
msgid "No devices yet."
msgstr "Aucun appareil pour l'instant."

#: Sources/Web/PushPage.swift
msgid "Device"
msgstr "Appareil"

#: Sources/Web/PushPage.swift Sources/Web/ServicePage.swift
msgid "Through"
msgstr "Via"

#: Sources/Web/PushPage.swift
msgid "stopped: it kept failing"
msgstr "arrêté : les envois échouaient"

#: Sources/Web/PushPage.swift
msgid "Remove"
msgstr "Retirer"

#: Sources/Web/PushPage.swift
msgid "What I am told"
msgstr "Ce dont on m'avertit"

#: Sources/Web/PushPage.swift
msgid "Going on duty"
msgstr "Début de garde"

#: Sources/Web/PushPage.swift
msgid "Cover asked of me"
msgstr "Remplacement qu'on me demande"

#: Sources/Web/PushPage.swift
msgid "My requests taken or expired"
msgstr "Mes demandes prises ou expirées"

#: Sources/Web/PushPage.swift
msgid "Duty during my time off"
msgstr "Garde pendant mon absence"

#: Sources/Web/PushPage.swift
msgid "Changes to my shifts"
msgstr "Modifications de mes gardes"

#: Sources/Web/PushPage.swift
msgid "Quiet hours (going on duty still rings)"
msgstr "Heures calmes (le début de garde sonne quand même)"

#: Sources/Web/PushPage.swift
msgid "Time zone"
msgstr "Fuseau horaire"

#: Sources/Web/PushPage.swift
msgid "Save"
msgstr "Enregistrer"

#: Sources/Web/ScheduleEditPage.swift
msgid "Name the people of the rotation, one per line"
msgstr "Indiquez les personnes de la rotation, une par ligne"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "At most {1} people (lines) in a rotation"
msgstr "Au plus {1} personnes (lignes) dans une rotation"

#: Sources/Web/ScheduleEditPage.swift
msgid "Every is a whole number from 1 to 1000"
msgstr "« Toutes les » est un nombre entier de 1 à 1000"

#: Sources/Web/ScheduleEditPage.swift
msgid "The handoff unit is hours, days, weeks or months"
msgstr "L’unité de relève est heures, jours, semaines ou mois"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "The layer is a whole number from 0 to {1}"
msgstr "La couche est un nombre entier de 0 à {1}"

#: Sources/Web/ScheduleEditPage.swift
msgid "First handoff"
msgstr "Première relève"

#: Sources/Web/ScheduleEditPage.swift
msgid "Choose two different people"
msgstr "Choisissez deux personnes différentes"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person’s duty from"
msgstr "Garde de la première personne du"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person’s until"
msgstr "Première personne jusqu’au"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person’s duty from"
msgstr "Garde de la seconde personne du"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person’s until"
msgstr "Seconde personne jusqu’au"

#: Sources/Web/ScheduleEditPage.swift
msgid "Each until must be after its from"
msgstr "Chaque « jusqu’au » doit être après son « du »"

#: Sources/Web/ScheduleEditPage.swift Sources/Web/WebApp.swift
msgid "Admins only"
msgstr "Réservé aux admins"

#: Sources/Web/ScheduleEditPage.swift
msgid "Rotations and swaps are changed by an admin, signed in here."
msgstr "Les rotations et les échanges sont modifiés par un admin connecté ici."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "Change — {1}"
msgstr "Modifier — {1}"

#: Sources/Web/ScheduleEditPage.swift
msgid "Change the schedule"
msgstr "Modifier le planning"

#: Sources/Web/ScheduleEditPage.swift
msgid "Add a rotation"
msgstr "Ajouter une rotation"

#: Sources/Web/ScheduleEditPage.swift
msgid "People, in turn order"
msgstr "Personnes, dans l’ordre de passage"

#: Sources/Web/ScheduleEditPage.swift
msgid "One per line (full name or id); “Ada Lovelace + Alan Turing” share a turn"
msgstr "Une par ligne (nom complet ou identifiant) ; « Ada Lovelace + Alan Turing » partagent un tour"

#: Sources/Web/ScheduleEditPage.swift
msgid "Hand off every"
msgstr "Relève toutes les"

#: Sources/Web/ScheduleEditPage.swift
msgid "Unit"
msgstr "Unité"

#: Sources/Web/ScheduleEditPage.swift
msgid "hours"
msgstr "heures"

#: Sources/Web/ScheduleEditPage.swift
msgid "days"
msgstr "jours"

#: Sources/Web/ScheduleEditPage.swift
msgid "weeks"
msgstr "semaines"

#: Sources/Web/ScheduleEditPage.swift
msgid "months"
msgstr "mois"

#: Sources/Web/ScheduleEditPage.swift
msgid "Layer (the highest with anyone on duty wins)"
msgstr "Couche (la plus haute avec quelqu’un de garde l’emporte)"

#: Sources/Web/ScheduleEditPage.swift
msgid "Swap duty"
msgstr "Échanger des gardes"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person"
msgstr "Première personne"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person"
msgstr "Seconde personne"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "Days from {1} to {2}"
msgstr "Jours du {1} au {2}"

#: Sources/Web/SchedulePage+Timeline.swift
msgid "Nothing in this window."
msgstr "Rien dans cette fenêtre."

#: Sources/Web/SchedulePage+Timeline.swift
msgid "Now"
msgstr "Maintenant"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "More than {1} stretches: the first ones are drawn."
msgstr "Plus de {1} périodes : les premières sont dessinées."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "Override: {1}"
msgstr "Remplacement : {1}"

#: Sources/Web/SchedulePage.swift
msgid "Final schedule"
msgstr "Planning final"

#: Sources/Web/SchedulePage.swift
msgid "Temporary schedules"
msgstr "Plannings temporaires"

#: Sources/Web/SchedulePage.swift
msgid "Time off"
msgstr "Absences"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "{1} off"
msgstr "{1} absent·e"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "Layer {1} ({2} rotation)"
msgid_plural "Layer {1} ({2} rotations)"
msgstr[0] "Couche {1} ({2} rotation)"
msgstr[1] "Couche {1} ({2} de rotations)"
msgstr[2] "Couche {1} ({2} rotations)"

#: Sources/Web/SchedulePage.swift
msgid "One-off shifts"
msgstr "Gardes ponctuelles"

#: Sources/Web/SchedulePage.swift
msgid "Overrides"
msgstr "Remplacements"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "This schedule could not be drawn for this window: {1}"
msgstr "Ce planning n’a pas pu être dessiné pour cette fenêtre : {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "{1} — schedule"
msgstr "{1} — planning"

#: Sources/Web/SchedulePage.swift
msgid "The same stretches as a table"
msgstr "Les mêmes périodes sous forme de tableau"

#: Sources/Web/SchedulePage.swift Sources/Web/WebPage.swift
msgid "Schedules"
msgstr "Plannings"

#: Sources/Web/SchedulePage.swift
msgid "Nobody on duty"
msgstr "Personne de garde"

#: Sources/Web/SchedulePage.swift
msgid "Timeline"
msgstr "Chronologie"

#: Sources/Web/SchedulePage.swift
msgid "← Previous"
msgstr "← Précédent"

#: Sources/Web/SchedulePage.swift
msgid "Today"
msgstr "Aujourd’hui"

#: Sources/Web/SchedulePage.swift
msgid "Next →"
msgstr "Suivant →"

#: Sources/Web/SchedulePage.swift
msgid "View in:"
msgstr "Afficher en :"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "Schedule zone ({1})"
msgstr "Fuseau du planning ({1})"

#: Sources/Web/SchedulePage.swift
msgid "Browser zone"
msgstr "Fuseau du navigateur"

#: Sources/Web/SchedulePage.swift
msgid "Add a rotation or swap"
msgstr "Ajouter une rotation ou un échange"

#: Sources/Web/SchedulePage.swift
msgid "Changes to this schedule"
msgstr "Modifications de ce planning"

#: Sources/Web/SchedulePage.swift
msgid "Who"
msgstr "Qui"

#: Sources/Web/SchedulePage.swift
msgid "Action"
msgstr "Action"

#: Sources/Web/SchedulePage.swift
msgid "Override…"
msgstr "Remplacer…"

#: Sources/Web/ServicePage.swift Sources/Web/WebPage.swift
msgid "Services"
msgstr "Services"

#: Sources/Web/ServicePage.swift
msgid "No services yet: an admin adds them in a definition file."
msgstr "Aucun service pour l’instant : un admin les ajoute dans un fichier de définition."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "policy {1}"
msgstr "politique {1}"

#: Sources/Web/ServicePage.swift
msgid "No such service"
msgstr "Service introuvable"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "There is no service named “{1}”."
msgstr "Il n’y a pas de service nommé « {1} »."

#: Sources/Web/ServicePage.swift
msgid "All services"
msgstr "Tous les services"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Pages through the escalation policy {1}."
msgstr "Alerte via la politique d’escalade {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "It runs again {1} time after its last step."
msgid_plural "It runs again {1} times after its last step."
msgstr[0] "Elle reprend {1} fois après sa dernière étape."
msgstr[1] "Elle reprend {1} fois après sa dernière étape."
msgstr[2] "Elle reprend {1} fois après sa dernière étape."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Team {1}."
msgstr "Équipe {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Times in {1}."
msgstr "Heures en {1}."

#: Sources/Web/ServicePage.swift
msgid "Paged now"
msgstr "Alerté maintenant"

#: Sources/Web/ServicePage.swift
msgid "If a page started now"
msgstr "Si une alerte partait maintenant"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "The policy could not be worked out now: {1}"
msgstr "La politique n’a pas pu être évaluée maintenant : {1}"

#: Sources/Web/ServicePage.swift
msgid "Step"
msgstr "Étape"

#: Sources/Web/ServicePage.swift
msgid "At"
msgstr "À"

#: Sources/Web/ServicePage.swift Sources/Web/WebPage.swift
msgid "Pages"
msgstr "Pages"

#: Sources/Web/ServicePage.swift
msgid "How"
msgstr "Comment"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Step {1}"
msgstr "Étape {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Step {1}, repeat {2}"
msgstr "Étape {1}, reprise {2}"

#: Sources/Web/ServicePage.swift
msgid "in turn"
msgstr "à tour de rôle"

#: Sources/Web/ServicePage.swift
msgid "no change planned"
msgstr "aucun changement prévu"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Nobody: the page still waits {1} min"
msgstr "Personne : l’alerte attend quand même {1} min"

#: Sources/Web/ServicePage.swift
msgid "named in the step"
msgstr "nommé dans l’étape"

#: Sources/Web/SignIn.swift
msgid "A token from roster-server token create (the demo writes roster-data/admin.token). This browser keeps a session, not the token; signing out ends it."
msgstr "Un jeton de roster-server token create (la démo écrit roster-data/admin.token). Ce navigateur garde une session, pas le jeton ; la déconnexion y met fin."

#: Sources/Web/SignIn.swift Sources/Web/WebApp.swift
msgid "That token is not valid (wrong, revoked or expired)."
msgstr "Ce jeton n’est pas valide (erroné, révoqué ou expiré)."

#: Sources/Web/SignIn.swift Sources/Web/SignInWithProvider.swift
msgid "This server holds as many sessions as it may; try again later."
msgstr "Ce serveur tient autant de sessions qu’il le peut ; réessayez plus tard."

#: Sources/Web/SignIn.swift
msgid "Refused"
msgstr "Refusé"

#: Sources/Web/SignIn.swift
msgid "This change did not come from this server’s own page (its CSRF check failed). Reload the page and try again."
msgstr "Cette modification ne vient pas d’une page de ce serveur (sa vérification CSRF a échoué). Rechargez la page et réessayez."

#: Sources/Web/SignIn.swift Sources/Web/WebApp.swift
msgid "Not signed in"
msgstr "Non connecté"

#: Sources/Web/SignIn.swift
msgid "Sign in to make changes."
msgstr "Connectez-vous pour modifier."

#: Sources/Web/SignInWithProvider.swift
msgid "Signed in"
msgstr "Connecté"

#: Sources/Web/SignInWithProvider.swift
msgid "Continue"
msgstr "Continuer"

#: Sources/Web/SignInWithProvider.swift
msgid "This sign-in was started in another browser. Start again from the sign-in page."
msgstr "Cette connexion a été commencée dans un autre navigateur. Recommencez depuis la page de connexion."

#: Sources/Web/SignInWithProvider.swift
msgid "Sign-in refused"
msgstr "Connexion refusée"

#: Sources/Web/TimelineWindow.swift
msgid "1 week"
msgstr "1 semaine"

#: Sources/Web/TimelineWindow.swift
msgid "2 weeks"
msgstr "2 semaines"

#: Sources/Web/TimelineWindow.swift
msgid "1 month"
msgstr "1 mois"

#: Sources/Web/TimelineWindow.swift
msgid "span is 1w, 2w or 1m"
msgstr "span vaut 1w, 2w ou 1m"

#: Sources/Web/TimelineWindow.swift
msgid "tz is schedule, utc or a zone name such as Europe/Berlin"
msgstr "tz vaut schedule, utc ou un nom de fuseau comme Europe/Berlin"

#: Sources/Web/TimelineWindow.swift
msgid "the schedule’s zone is unknown here"
msgstr "le fuseau du planning est inconnu ici"

#: Sources/Web/TimelineWindow.swift
msgid "start is a date, YYYY-MM-DD"
msgstr "start est une date, AAAA-MM-JJ"

#: Sources/Web/WebApp.swift
msgid "Not here"
msgstr "Pas ici"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebApp.swift
msgid "This page does not take {1} requests."
msgstr "Cette page n’accepte pas les requêtes {1}."

#: Sources/Web/WebApp.swift
msgid "Unknown grouping"
msgstr "Regroupement inconnu"

#: Sources/Web/WebApp.swift
msgid "Group people by position or team."
msgstr "Regroupez les personnes par poste ou par équipe."

#: Sources/Web/WebApp.swift
msgid "Sign in with your token to read this server."
msgstr "Connectez-vous avec votre jeton pour consulter ce serveur."

#: Sources/Web/WebApp.swift
msgid "Starting"
msgstr "Démarrage"

#: Sources/Web/WebApp.swift
msgid "The server is starting: try again in a moment."
msgstr "Le serveur démarre : réessayez dans un instant."

#: Sources/Web/WebApp.swift
msgid "No such schedule"
msgstr "Planning introuvable"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebApp.swift
msgid "There is no schedule named “{1}”."
msgstr "Il n’y a pas de planning nommé « {1} »."

#: Sources/Web/WebApp.swift
msgid "All schedules"
msgstr "Tous les plannings"

#: Sources/Web/WebPage.swift
msgid "Skip to content"
msgstr "Aller au contenu"

#: Sources/Web/WebPage.swift
msgid "admin"
msgstr "admin"

#: Sources/Web/WebPage.swift
msgid "reader"
msgstr "lecteur"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebPage.swift
msgid "Signed in: {1} ({2})"
msgstr "Connecté : {1} ({2})"

#: Sources/Web/WebPage.swift
msgid "Sign out"
msgstr "Se déconnecter"

#: Sources/Web/WebPage.swift
msgid "Language"
msgstr "Langue"

#: Sources/Web/WebPage.swift
msgid "As the browser asks"
msgstr "Selon le navigateur"

#: Sources/Web/WebPage.swift
msgid "Change"
msgstr "Changer"
"""#

    static let es = #"""
# The web app's messages in Spanish.
msgid ""
msgstr ""
"Project-Id-Version: roster\n"
"PO-Revision-Date: 2026-11-28 17:00+0000\n"
"Last-Translator: Roster <roster@localhost>\n"
"Language-Team: Roster <roster@localhost>\n"
"Language: es\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=3; plural=n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;\n"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "No schedule “{1}”. Schedules: {2}"
msgstr "No hay calendario «{1}». Calendarios: {2}"

#: Sources/Notifications/Chat/ChatCommands.swift
msgid "/oncall: who is on call on every schedule; /oncall SCHEDULE; /oncall next SCHEDULE; /oncall me. Add --public to answer in the channel."
msgstr "/oncall: quién está de guardia en cada calendario; /oncall CALENDARIO; /oncall next CALENDARIO; /oncall me. Añade --public para responder en el canal."

#: Sources/Notifications/Chat/ChatCommands.swift
msgid "There are no schedules yet."
msgstr "Todavía no hay calendarios."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "… and {1} more schedules"
msgstr "… y {1} calendarios más"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Nobody else is planned on {1}."
msgstr "No hay nadie más previsto en {1}."

#: Sources/Notifications/Chat/ChatCommands.swift
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "nobody"
msgstr "nadie"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Next on call for {1}: {2} from {3}"
msgstr "Próxima guardia en {1}: {2} a partir de {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "Roster does not know your {1} handle ({2}): an admin adds it with {3}."
msgstr "Roster no conoce tu usuario de {1} ({2}): un admin lo añade con {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is on call for {2} until {3}"
msgid_plural "{1} are on call for {2} until {3}"
msgstr[0] "{1} está de guardia en {2} hasta {3}"
msgstr[1] "{1} están de guardia en {2} hasta {3}"
msgstr[2] "{1} están de guardia en {2} hasta {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} is on call for {2}"
msgid_plural "{1} are on call for {2}"
msgstr[0] "{1} está de guardia en {2}"
msgstr[1] "{1} están de guardia en {2}"
msgstr[2] "{1} están de guardia en {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is not on call now; next on call for {2} from {3}."
msgstr "{1} no está de guardia ahora; próxima guardia en {2} a partir de {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatCommands.swift
msgid "{1} is not on call now, nor planned to be in the next year."
msgstr "{1} no está de guardia ahora, ni está previsto en el próximo año."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Reminder ({1}): {2} is on call for {3} from {4} to {5}"
msgstr "Recordatorio ({1}): {2} está de guardia en {3} de {4} a {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody is on call for {1} from {2} on"
msgstr "Nadie está de guardia en {1} a partir de {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody is on call for {1} from {2} to {3}"
msgstr "Nadie está de guardia en {1} de {2} a {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} has time off but is on call for {2} from {3} to {4}"
msgstr "{1} está ausente pero de guardia en {2} de {3} a {4}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody on the schedule is free then."
msgstr "Nadie del calendario está libre entonces."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Free then, fewest hours first: {1}"
msgstr "Libres entonces, primero quienes tienen menos horas: {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Roster test post for webhook {1}: this channel will get Roster's posts."
msgstr "Mensaje de prueba de Roster para el webhook {1}: este canal recibirá los mensajes de Roster."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "override by {1}"
msgstr "sustitución por {1}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "override"
msgstr "sustitución"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "swap"
msgstr "intercambio"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "cover request taken"
msgstr "solicitud de sustitución aceptada"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "duty taken"
msgstr "guardia tomada"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "handoff"
msgstr "relevo"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "changed by {1}"
msgstr "cambiado por {1}"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "plan changed"
msgstr "calendario cambiado"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Nobody"
msgstr "Nadie"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} is on call for {2} until {3}; next: {4}"
msgid_plural "{1} are on call for {2} until {3}; next: {4}"
msgstr[0] "{1} está de guardia en {2} hasta {3}; después: {4}"
msgstr[1] "{1} están de guardia en {2} hasta {3}; después: {4}"
msgstr[2] "{1} están de guardia en {2} hasta {3}; después: {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "({1})"
msgstr "({1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s shifts changed (by {2}):"
msgstr "Los turnos de {1} cambiaron (por {2}):"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• gained {1}: {2} to {3}"
msgstr "• añadido {1}: {2} a {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• lost {1}: {2} to {3}"
msgstr "• quitado {1}: {2} a {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "• moved {1}: {2} to {3}"
msgstr "• movido {1}: {2} a {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "(was {1})"
msgstr "(antes {1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "… and {1} more"
msgstr "… y {1} más"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Someone"
msgstr "Alguien"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} took {2}'s cover request on {3}: {4} to {5}"
msgstr "{1} aceptó la solicitud de sustitución de {2} en {3}: {4} a {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} cancelled their cover request on {2}: {3} to {4}"
msgstr "{1} canceló su solicitud de sustitución en {2}: {3} a {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s cover request on {2} expired with nobody taking it: {3} to {4}"
msgstr "La solicitud de sustitución de {1} en {2} caducó sin que nadie la aceptara: {3} a {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} backed out: {2}'s cover request on {3} is open again: {4} to {5}"
msgstr "{1} se retiró: la solicitud de sustitución de {2} en {3} vuelve a estar abierta: {4} a {5}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}'s cover request on {2} is open again: {3} to {4}"
msgstr "La solicitud de sustitución de {1} en {2} vuelve a estar abierta: {3} a {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1} asks for cover on {2}: {3} to {4}"
msgstr "{1} pide una sustitución en {2}: {3} a {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "(“{1}”)"
msgstr "(«{1}»)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Escalation policy {1} was removed"
msgstr "Se eliminó la política de escalado {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}, step {2} pages {3} until {4}"
msgstr "{1}, paso {2}: avisa a {3} hasta {4}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "{1}, step {2} pages {3}"
msgstr "{1}, paso {2}: avisa a {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Notifications/Chat/ChatPosts.swift
msgid "Escalation policy {1} changed; its steps page the same people"
msgstr "La política de escalado {1} cambió; sus pasos avisan a las mismas personas"

#: Sources/Notifications/Chat/ChatPosts.swift
msgid " and "
msgstr " y "

#: Sources/Web/ChangesPage.swift
msgid "The audit log is for admins, as over the protocol."
msgstr "El registro de auditoría es solo para admins, como por el protocolo."

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/PersonPage.swift Sources/Web/WebApp.swift
msgid "Busy"
msgstr "Ocupado"

#: Sources/Web/ChangesPage.swift
msgid "The audit log could not be read now: try again in a moment."
msgstr "No se pudo leer el registro de auditoría: inténtalo de nuevo en un momento."

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/WebApp.swift
msgid "The server is busy: try again in a moment."
msgstr "El servidor está ocupado: inténtalo de nuevo en un momento."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Changes — {1}"
msgstr "Cambios — {1}"

#: Sources/Web/ChangesPage.swift
msgid "Changes"
msgstr "Cambios"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift Sources/Web/OnCallPage.swift
#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
#: Sources/Web/SchedulePage.swift
msgid "Times in {1}"
msgstr "Horas en {1}"

#: Sources/Web/ChangesPage.swift Sources/Web/HoursPage.swift
#: Sources/Web/ScheduleEditPage.swift
msgid "Back to the timeline"
msgstr "Volver a la cronología"

#: Sources/Web/ChangesPage.swift
msgid "No changes recorded."
msgstr "No hay cambios registrados."

#: Sources/Web/ChangesPage.swift
msgid "server"
msgstr "servidor"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "{1}, revision {2}"
msgstr "{1}, revisión {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "“{1}”"
msgstr "«{1}»"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Older changes are left out (the newest {1} are shown)."
msgstr "Se omiten los cambios más antiguos (se muestran los {1} más recientes)."

#: Sources/Web/ChangesPage.swift
msgid "Schedule created"
msgstr "Calendario creado"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Override added: {1}"
msgstr "Sustitución añadida: {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "Override removed: {1}"
msgstr "Sustitución eliminada: {1}"

#: Sources/Web/ChangesPage.swift
msgid "Rotations changed"
msgstr "Rotaciones cambiadas"

#: Sources/Web/ChangesPage.swift
msgid "Details changed"
msgstr "Detalles cambiados"

#: Sources/Web/ChangesPage.swift
msgid "Definition saved"
msgstr "Definición guardada"

#: Sources/Web/ChangesPage.swift
msgid "Schedule deleted"
msgstr "Calendario eliminado"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "One-off shift added: {1}, {2} – {3}"
msgstr "Turno puntual añadido: {1}, {2} – {3}"

#: Sources/Web/ChangesPage.swift
msgid "One-off shift removed"
msgstr "Turno puntual eliminado"

#: Sources/Web/ChangesPage.swift
msgid "Changed"
msgstr "Cambiado"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift Sources/Web/SchedulePage.swift
msgid "{1} for {2}"
msgstr "{1} en lugar de {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ChangesPage.swift
msgid "without {1}"
msgstr "sin {1}"

#: Sources/Web/CommandLineSignIn.swift
msgid "Sign in to roster-client"
msgstr "Iniciar sesión en roster-client"

#: Sources/Web/CommandLineSignIn.swift
msgid "You are signed in with a token that names nobody: roster-client can act only for a person."
msgstr "Ha iniciado sesión con un token que no nombra a nadie: roster-client solo puede actuar por una persona."

#: Sources/Web/CommandLineSignIn.swift
msgid "No roster-client is waiting for this code (it is wrong, used or older than 10 minutes)."
msgstr "Ningún roster-client espera este código (es incorrecto, ya se usó o tiene más de 10 minutos)."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CommandLineSignIn.swift
msgid "A roster-client asks to act as {1} ({2}) with the code {3}. Allow it only if you started it."
msgstr "Un roster-client pide actuar como {1} ({2}) con el código {3}. Permítalo solo si lo inició usted."

#: Sources/Web/CommandLineSignIn.swift
msgid "Allow"
msgstr "Permitir"

#: Sources/Web/CommandLineSignIn.swift
msgid "Deny"
msgstr "Rechazar"

#: Sources/Web/CommandLineSignIn.swift
msgid "Sign in first; you come back here to allow the roster-client."
msgstr "Inicie sesión primero; volverá aquí para permitir el roster-client."

#: Sources/Web/CommandLineSignIn.swift Sources/Web/SignIn.swift
msgid "Sign in with your organisation’s account"
msgstr "Iniciar sesión con la cuenta de su organización"

#: Sources/Web/CommandLineSignIn.swift
msgid "Done: go back to your terminal."
msgstr "Listo: vuelva a su terminal."

#: Sources/Web/CommandLineSignIn.swift
msgid "Refused: the roster-client gets nothing."
msgstr "Rechazado: el roster-client no obtiene nada."

#: Sources/Web/CommandLineSignIn.swift Sources/Web/PersonPage.swift
#: Sources/Web/SignInWithProvider.swift Sources/Web/WebPage.swift
msgid "My shifts"
msgstr "Mis turnos"

#: Sources/Web/ConflictsSection.swift
msgid "Conflicts: on duty during time off"
msgstr "Conflictos: de guardia durante una ausencia"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "has time off but is on duty from {1} to {2}."
msgstr "está ausente pero de guardia del {1} al {2}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "has time off ({1}) but is on duty from {2} to {3}."
msgstr "está ausente ({1}) pero de guardia del {2} al {3}."

#: Sources/Web/ConflictsSection.swift
msgid "Nobody on this schedule is free then."
msgstr "Nadie de este calendario está libre entonces."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "{1} ({2} h)"
msgstr "{1} ({2} h)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "Free, fewest hours around it first: {1}."
msgstr "Libres, primero quienes tienen menos horas alrededor: {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ConflictsSection.swift
msgid "Cover with {1}"
msgstr "Cubrir con {1}"

#: Sources/Web/CoverRequestsSection.swift
msgid "Cover requests"
msgstr "Solicitudes de sustitución"

#: Sources/Web/CoverRequestsSection.swift
msgid "No open cover requests."
msgstr "No hay solicitudes de sustitución abiertas."

#: Sources/Web/CoverRequestsSection.swift
msgid "Who asks"
msgstr "Quién pide"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/OverrideForm.swift
#: Sources/Web/PushPage.swift Sources/Web/SchedulePage.swift
msgid "From"
msgstr "Desde"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/PushPage.swift
msgid "To"
msgstr "Hasta"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/PersonalTokensPage.swift
msgid "For"
msgstr "Para"

#: Sources/Web/CoverRequestsSection.swift
msgid "State"
msgstr "Estado"

#: Sources/Web/CoverRequestsSection.swift
msgid "Note"
msgstr "Nota"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/ServicePage.swift
msgid "everyone"
msgstr "todos"

#: Sources/Web/CoverRequestsSection.swift
msgid "open"
msgstr "abierta"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CoverRequestsSection.swift
msgid "taken by {1}"
msgstr "tomada por {1}"

#: Sources/Web/CoverRequestsSection.swift
msgid "cancelled"
msgstr "cancelada"

#: Sources/Web/CoverRequestsSection.swift
msgid "expired"
msgstr "caducada"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/CoverRequestsSection.swift
msgid "Cover requests on {1}"
msgstr "Solicitudes de sustitución en {1}"

#: Sources/Web/CoverRequestsSection.swift
msgid "Take"
msgstr "Aceptar"

#: Sources/Web/CoverRequestsSection.swift
msgid "Decline"
msgstr "Rechazar"

#: Sources/Web/CoverRequestsSection.swift Sources/Web/OverrideForm.swift
msgid "Cancel"
msgstr "Cancelar"

#: Sources/Web/CoverRequestsSection.swift
msgid "Back out"
msgstr "Retirarse"

#: Sources/Web/CoverRequestsSection.swift
msgid "Not a step"
msgstr "No es un paso"

#: Sources/Web/CoverRequestsSection.swift
msgid "Say which request and which step: take, decline, cancel or back out."
msgstr "Indica qué solicitud y qué paso: aceptar, rechazar, cancelar o retirarse."

#: Sources/Web/CoverRequestsSection.swift
msgid "Not done"
msgstr "No realizado"

#: Sources/Web/CoverRequestsSection.swift
msgid "Back to the schedule"
msgstr "Volver al calendario"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "People — {1}"
msgstr "Personas — {1}"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
#: Sources/Web/WebPage.swift
msgid "People"
msgstr "Personas"

#: Sources/Web/DirectoryPage.swift
msgid "Search"
msgstr "Buscar"

#: Sources/Web/DirectoryPage.swift
msgid "Group by"
msgstr "Agrupar por"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
msgid "Position"
msgstr "Puesto"

#: Sources/Web/DirectoryPage.swift Sources/Web/PersonPage.swift
msgid "Team"
msgstr "Equipo"

#: Sources/Web/DirectoryPage.swift
msgid "Show"
msgstr "Mostrar"

#: Sources/Web/DirectoryPage.swift
msgid "No employees found"
msgstr "No se encontraron empleados"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "No one matches “{1}”"
msgstr "Nadie coincide con «{1}»"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/DirectoryPage.swift
msgid "{1} of {2} person; revision {3}."
msgid_plural "{1} of {2} people; revision {3}."
msgstr[0] "{1} de {2} persona; revisión {3}."
msgstr[1] "{1} de {2} de personas; revisión {3}."
msgstr[2] "{1} de {2} personas; revisión {3}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "unknown zone {1}"
msgstr "zona horaria desconocida {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} is a date and time, YYYY-MM-DDTHH:MM (in {2})"
msgstr "{1} es una fecha y hora, AAAA-MM-DDTHH:MM (en {2})"

#: Sources/Web/FormParts.swift
msgid "What it changes"
msgstr "Qué cambia"

#: Sources/Web/FormParts.swift
msgid "Nobody gains or loses duty: this changes nothing that is planned."
msgstr "Nadie gana ni pierde guardias: esto no cambia nada de lo planificado."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} gains {2} – {3}"
msgstr "{1} recibe {2} – {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "{1} loses {2} – {3}"
msgstr "{1} pierde {2} – {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/FormParts.swift
msgid "and {1} more stretch"
msgid_plural "and {1} more stretches"
msgstr[0] "y {1} tramo más"
msgstr[1] "y {1} de tramos más"
msgstr[2] "y {1} tramos más"

#: Sources/Web/FormParts.swift
msgid "Nothing is changed until you confirm."
msgstr "No se cambia nada hasta que confirmes."

#: Sources/Web/HoursPage.swift
msgid "Business hours"
msgstr "Horario laboral"

#: Sources/Web/HoursPage.swift
msgid "Outside business hours"
msgstr "Fuera del horario laboral"

#: Sources/Web/HoursPage.swift
msgid "Night"
msgstr "Noche"

#: Sources/Web/HoursPage.swift
msgid "Weekend"
msgstr "Fin de semana"

#: Sources/Web/HoursPage.swift
msgid "Holiday"
msgstr "Festivo"

#: Sources/Web/HoursPage.swift
msgid "Person"
msgstr "Persona"

#: Sources/Web/HoursPage.swift
msgid "Total"
msgstr "Total"

#: Sources/Web/HoursPage.swift
msgid "Business"
msgstr "Laboral"

#: Sources/Web/HoursPage.swift
msgid "Outside"
msgstr "Fuera"

#: Sources/Web/HoursPage.swift Sources/Web/OverrideForm.swift
msgid "Override"
msgstr "Sustitución"

#: Sources/Web/HoursPage.swift
msgid "Cover taken"
msgstr "Sustituciones tomadas"

#: Sources/Web/HoursPage.swift
msgid "Cover given"
msgstr "Sustituciones cedidas"

#: Sources/Web/HoursPage.swift
msgid "Periods"
msgstr "Periodos"

#: Sources/Web/HoursPage.swift Sources/Web/SchedulePage.swift
msgid "Stretches"
msgstr "Tramos"

#: Sources/Web/HoursPage.swift
msgid "Longest"
msgstr "El más largo"

#: Sources/Web/HoursPage.swift
msgid "Shortest rest"
msgstr "Descanso más corto"

#: Sources/Web/HoursPage.swift
msgid "Reports of everyone’s hours are for admins, as over the protocol."
msgstr "Los informes de las horas de todos son solo para admins, como por el protocolo."

#: Sources/Web/HoursPage.swift Sources/Web/WebApp.swift
msgid "Not a window"
msgstr "No es una ventana"

#: Sources/Web/HoursPage.swift
msgid "days is 7, 28 or 90."
msgstr "days es 7, 28 o 90."

#: Sources/Web/HoursPage.swift
msgid "No report"
msgstr "Sin informe"

#: Sources/Web/HoursPage.swift
msgid "The report could not be made now: try again in a moment."
msgstr "No se pudo generar el informe: inténtalo de nuevo en un momento."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Hours — {1}"
msgstr "Horas — {1}"

#: Sources/Web/HoursPage.swift Sources/Web/SchedulePage.swift
msgid "Hours and fairness"
msgstr "Horas y equidad"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Days and hours counted in {1}"
msgstr "Días y horas contados en {1}"

#: Sources/Web/HoursPage.swift
msgid "Window"
msgstr "Ventana"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "Last {1} days"
msgstr "Últimos {1} días"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "From {1} to {2}; before {3} as the schedule is defined now (the duty record begins then)."
msgstr "Del {1} al {2}; antes del {3}, según el calendario tal como está definido ahora (el registro de guardias empieza entonces)."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "From {1} to {2}."
msgstr "Del {1} al {2}."

#: Sources/Web/HoursPage.swift
msgid "Coverage"
msgstr "Cobertura"

#: Sources/Web/HoursPage.swift
msgid "Gaps"
msgstr "Huecos"

#: Sources/Web/HoursPage.swift
msgid "Equity"
msgstr "Equidad"

#: Sources/Web/HoursPage.swift
msgid "Balance (Grafana OnCall’s score)"
msgstr "Equilibrio (puntuación de Grafana OnCall)"

#: Sources/Web/HoursPage.swift
msgid "Nobody was on duty in this window."
msgstr "Nadie estuvo de guardia en esta ventana."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/HoursPage.swift
msgid "{1}: {2} h, {3}"
msgstr "{1}: {2} h, {3}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} s)"
msgstr "(en {1} s)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} min {2} s)"
msgstr "(en {1} min {2} s)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} h {2} min)"
msgstr "(en {1} h {2} min)"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "(in {1} day)"
msgid_plural "(in {1} days)"
msgstr[0] "(en {1} día)"
msgstr[1] "(en {1} de días)"
msgstr[2] "(en {1} días)"

#: Sources/Web/LiveScript.swift
msgid "less than a minute ago"
msgstr "hace menos de un minuto"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} minute ago"
msgid_plural "{1} minutes ago"
msgstr[0] "hace {1} minuto"
msgstr[1] "hace {1} de minutos"
msgstr[2] "hace {1} minutos"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} hour ago"
msgid_plural "{1} hours ago"
msgstr[0] "hace {1} hora"
msgstr[1] "hace {1} de horas"
msgstr[2] "hace {1} horas"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "{1} day ago"
msgid_plural "{1} days ago"
msgstr[0] "hace {1} día"
msgstr[1] "hace {1} de días"
msgstr[2] "hace {1} días"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "No connection — showing data from {1}"
msgstr "Sin conexión — datos de {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "No connection — showing data from {1} (no plan kept beyond this: it may be out of date)"
msgstr "Sin conexión — datos de {1} (no se guardó plan más allá: pueden estar desactualizados)"

#: Sources/Web/LiveScript.swift
msgid "Live"
msgstr "En directo"

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Nobody is on duty."
msgstr "Nadie está de guardia."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Until {1}"
msgstr "Hasta el {1}"

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "No change planned."
msgstr "No hay cambios previstos."

#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "Next"
msgstr "A continuación"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "since {1}"
msgstr "desde {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift Sources/Web/OnCallPage.swift
msgid "from {1}"
msgstr "a partir de {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/LiveScript.swift
msgid "Browser zone ({1})"
msgstr "Zona del navegador ({1})"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift
msgid "On call now — {1}"
msgstr "De guardia ahora — {1}"

#: Sources/Web/OnCallPage.swift Sources/Web/WebPage.swift
msgid "On call now"
msgstr "De guardia ahora"

#: Sources/Web/OnCallPage.swift Sources/Web/SchedulePage.swift
msgid "No schedules yet."
msgstr "Todavía no hay calendarios."

#: Sources/Web/OnCallPage.swift
msgid "This schedule could not be worked out now."
msgstr "No se pudo calcular este calendario ahora."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift Sources/Web/PersonPage.swift
#: Sources/Web/SchedulePage.swift Sources/Web/ServicePage.swift
msgid "As of {1}, revision {2}."
msgstr "A fecha de {1}, revisión {2}."

#: Sources/Web/OnCallPage.swift
msgid "Nobody new."
msgstr "Nadie nuevo."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OnCallPage.swift
msgid "{1} stays on."
msgid_plural "{1} stay on."
msgstr[0] "{1} sigue de guardia."
msgstr[1] "{1} siguen de guardia."
msgstr[2] "{1} siguen de guardia."

#: Sources/Web/OverrideForm.swift Sources/Web/PersonalTokensPage.swift
#: Sources/Web/SchedulePage.swift Sources/Web/ServicePage.swift
msgid "Until"
msgstr "Hasta"

#: Sources/Web/OverrideForm.swift
msgid "Until must be after From"
msgstr "«Hasta» debe ser posterior a «Desde»"

#: Sources/Web/OverrideForm.swift
msgid "Choose who is on duty instead"
msgstr "Elige quién está de guardia en su lugar"

#: Sources/Web/OverrideForm.swift
msgid "Sign in to make changes"
msgstr "Inicia sesión para hacer cambios"

#: Sources/Web/OverrideForm.swift
msgid "Overrides are made by an admin, or by a person for themselves where the schedule allows it."
msgstr "Las sustituciones las hace un admin, o cada persona para sí misma si el calendario lo permite."

#: Sources/Web/OverrideForm.swift Sources/Web/PersonPage.swift
#: Sources/Web/ScheduleEditPage.swift Sources/Web/SignIn.swift
#: Sources/Web/SignInWithProvider.swift Sources/Web/WebApp.swift
#: Sources/Web/WebPage.swift
msgid "Sign in"
msgstr "Iniciar sesión"

#: Sources/Web/OverrideForm.swift
msgid "Not allowed"
msgstr "No permitido"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "Only an admin may change {1}."
msgstr "Solo un admin puede cambiar {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "{1} does not let people put themselves on duty; ask an admin."
msgstr "{1} no permite que cada uno se ponga de guardia; pídeselo a un admin."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/OverrideForm.swift
msgid "Override — {1}"
msgstr "Sustitución — {1}"

#: Sources/Web/OverrideForm.swift
msgid "Sign in to make changes from this page (a bearer token can use roster-client admin override)."
msgstr "Inicia sesión para hacer cambios desde esta página (un token bearer puede usar roster-client admin override)."

#: Sources/Web/OverrideForm.swift
msgid "Instead of"
msgstr "En lugar de"

#: Sources/Web/OverrideForm.swift
msgid "(nobody: add a person)"
msgstr "(nadie: añadir una persona)"

#: Sources/Web/OverrideForm.swift
msgid "On duty"
msgstr "De guardia"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Choose a person"
msgstr "Elige una persona"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Reason"
msgstr "Motivo"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Preview"
msgstr "Vista previa"

#: Sources/Web/OverrideForm.swift Sources/Web/ScheduleEditPage.swift
msgid "Confirm"
msgstr "Confirmar"

#: Sources/Web/PersonPage.swift
msgid "No such person"
msgstr "No existe esa persona"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Nobody here has the id “{1}”."
msgstr "Nadie aquí tiene el id «{1}»."

#: Sources/Web/PersonPage.swift
msgid "Next on duty"
msgstr "Próximas guardias"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Sign in with a token that names you (an admin makes one on the server: {1}) to see your shifts."
msgstr "Inicia sesión con un token a tu nombre (un admin lo crea en el servidor: {1}) para ver tus turnos."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "This token names no person here: ask an admin for one made with {1}."
msgstr "Este token no nombra a ninguna persona aquí: pide a un admin uno creado con {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "My shifts — {1}"
msgstr "Mis turnos — {1}"

#: Sources/Web/PersonPage.swift
msgid "Upcoming"
msgstr "Próximos"

#: Sources/Web/PersonPage.swift
msgid "Recent"
msgstr "Recientes"

#: Sources/Web/PersonPage.swift
msgid "Calendar"
msgstr "Calendario"

#: Sources/Web/PersonPage.swift
msgid "A private feed of your shifts for your calendar app (iCalendar). The link is shown once."
msgstr "Un feed privado de tus turnos para tu app de calendario (iCalendar). El enlace se muestra una sola vez."

#: Sources/Web/PersonPage.swift
msgid "Make my calendar link"
msgstr "Crear mi enlace de calendario"

#: Sources/Web/PersonPage.swift Sources/Web/PushPage.swift
msgid "Notifications"
msgstr "Notificaciones"

#: Sources/Web/PersonPage.swift
msgid "on your phone or in this browser"
msgstr "en su teléfono o en este navegador"

#: Sources/Web/PersonPage.swift Sources/Web/PersonalTokensPage.swift
msgid "My tokens"
msgstr "Mis tokens"

#: Sources/Web/PersonPage.swift
msgid "for scripts and status lights"
msgstr "para scripts y luces de estado"

#: Sources/Web/PersonPage.swift
msgid "No duty planned."
msgstr "No hay guardias previstas."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "On duty now on {1}, until {2}."
msgstr "De guardia ahora en {1}, hasta el {2}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "Next on duty: {1}, {2} – {3}."
msgstr "Próxima guardia: {1}, {2} – {3}."

#: Sources/Web/PersonPage.swift
msgid "Projects"
msgstr "Proyectos"

#: Sources/Web/PersonPage.swift
msgid "Contact"
msgstr "Contacto"

#: Sources/Web/PersonPage.swift
msgid "Photo"
msgstr "Foto"

#: Sources/Web/PersonPage.swift
msgid "Open photo"
msgstr "Abrir la foto"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "The schedules could not be worked out now: {1}"
msgstr "No se pudieron calcular los calendarios ahora: {1}"

#: Sources/Web/PersonPage.swift
msgid "No duty in the last 14 days."
msgstr "Sin guardias en los últimos 14 días."

#: Sources/Web/PersonPage.swift
msgid "No duty in the next 28 days."
msgstr "Sin guardias en los próximos 28 días."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "{1} – {2}"
msgstr "{1} – {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "before {1} – {2}"
msgstr "antes de {1} – {2}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "{1} – {2} and on"
msgstr "{1} – {2} y después"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonPage.swift
msgid "before {1} – {2} and on"
msgstr "antes de {1} – {2} y después"

#: Sources/Web/PersonPage.swift
msgid "on duty now"
msgstr "de guardia ahora"

#: Sources/Web/PersonPage.swift
msgid "This token names no person here."
msgstr "Este token no nombra a ninguna persona aquí."

#: Sources/Web/PersonPage.swift
msgid "My calendar link"
msgstr "Mi enlace de calendario"

#: Sources/Web/PersonPage.swift
msgid "Subscribe to this address in your calendar app. It is shown only now; keep it private."
msgstr "Suscríbete a esta dirección en tu app de calendario. Solo se muestra ahora; mantenla en privado."

#: Sources/Web/PersonPage.swift
msgid "Open in my calendar app"
msgstr "Abrir en mi app de calendario"

#: Sources/Web/PersonPage.swift
msgid "No calendar link"
msgstr "Sin enlace de calendario"

#: Sources/Web/PersonPage.swift
msgid "Try again in a moment."
msgstr "Inténtalo de nuevo en un momento."

#: Sources/Web/PersonalTokensPage.swift
msgid "Sign in to see your tokens."
msgstr "Inicie sesión para ver sus tokens."

#: Sources/Web/PersonalTokensPage.swift
msgid "Tokens of your own for scripts, calendar programs and status lights: each reads, or also does what you may do yourself, until it expires or you revoke it."
msgstr "Tokens propios para scripts, programas de calendario y luces de estado: cada uno lee, o también hace lo que usted puede hacer, hasta que caduque o lo revoque."

#: Sources/Web/PersonalTokensPage.swift
msgid "Make a token"
msgstr "Crear un token"

#: Sources/Web/PersonalTokensPage.swift
msgid "What it is for"
msgstr "Para qué sirve"

#: Sources/Web/PersonalTokensPage.swift
msgid "Days it lasts"
msgstr "Días de validez"

#: Sources/Web/PersonalTokensPage.swift
msgid "Reading only"
msgstr "Solo lectura"

#: Sources/Web/PersonalTokensPage.swift
msgid "Make the token"
msgstr "Crear el token"

#: Sources/Web/PersonalTokensPage.swift
msgid "No tokens."
msgstr "Ningún token."

#: Sources/Web/PersonalTokensPage.swift Sources/Web/SignIn.swift
msgid "Token"
msgstr "Token"

#: Sources/Web/PersonalTokensPage.swift
msgid "May"
msgstr "Puede"

#: Sources/Web/PersonalTokensPage.swift
msgid "read"
msgstr "leer"

#: Sources/Web/PersonalTokensPage.swift
msgid "read and act"
msgstr "leer y actuar"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/PersonalTokensPage.swift
msgid "read, act on {1}"
msgstr "leer, actuar en {1}"

#: Sources/Web/PersonalTokensPage.swift
msgid "Revoke"
msgstr "Revocar"

#: Sources/Web/PersonalTokensPage.swift
msgid "A token lasts from 1 to 365 days."
msgstr "Un token dura de 1 a 365 días."

#: Sources/Web/PersonalTokensPage.swift
msgid "My new token"
msgstr "Mi nuevo token"

#: Sources/Web/PersonalTokensPage.swift
msgid "Copy it now: it is shown only this once. Keep it private."
msgstr "Cópielo ahora: solo se muestra esta vez. Manténgalo en privado."

#: Sources/Web/PushPage.swift
msgid "Sign in to be notified on your phone."
msgstr "Inicie sesión para recibir avisos en su teléfono."

#: Sources/Web/PushPage.swift
msgid "Your phone or this browser tells you when you go on duty and when someone asks you to cover."
msgstr "Su teléfono o este navegador le avisa cuando empieza su guardia y cuando alguien le pide que lo cubra."

#: Sources/Web/PushPage.swift
msgid "This browser may not show notifications: allow them in its settings."
msgstr "Este navegador no puede mostrar notificaciones: permítalas en su configuración."

#: Sources/Web/PushPage.swift
msgid "This device could not be subscribed:"
msgstr "No se pudo suscribir este dispositivo:"

#: Sources/Web/PushPage.swift
msgid "This device was subscribed again with the server's new key."
msgstr "Este dispositivo se suscribió de nuevo con la nueva clave del servidor."

#: Sources/Web/PushPage.swift
msgid "Notify me on this device"
msgstr "Avisarme en este dispositivo"

#: Sources/Web/PushPage.swift
msgid "My devices"
msgstr "Mis dispositivos"

#: Sources/Web/PushPage.swift
msgid "No devices yet."
msgstr "Todavía no hay dispositivos."

#: Sources/Web/PushPage.swift
msgid "Device"
msgstr "Dispositivo"

#: Sources/Web/PushPage.swift Sources/Web/ServicePage.swift
msgid "Through"
msgstr "Vía"

#: Sources/Web/PushPage.swift
msgid "stopped: it kept failing"
msgstr "detenido: fallaba una y otra vez"

#: Sources/Web/PushPage.swift
msgid "Remove"
msgstr "Quitar"

#: Sources/Web/PushPage.swift
msgid "What I am told"
msgstr "De qué me avisan"

#: Sources/Web/PushPage.swift
msgid "Going on duty"
msgstr "Inicio de guardia"

#: Sources/Web/PushPage.swift
msgid "Cover asked of me"
msgstr "Cobertura que me piden"

#: Sources/Web/PushPage.swift
msgid "My requests taken or expired"
msgstr "Mis solicitudes aceptadas o vencidas"

#: Sources/Web/PushPage.swift
msgid "Duty during my time off"
msgstr "Guardia durante mi ausencia"

#: Sources/Web/PushPage.swift
msgid "Changes to my shifts"
msgstr "Cambios en mis turnos"

#: Sources/Web/PushPage.swift
msgid "Quiet hours (going on duty still rings)"
msgstr "Horas de silencio (el inicio de guardia suena igualmente)"

#: Sources/Web/PushPage.swift
msgid "Time zone"
msgstr "Zona horaria"

#: Sources/Web/PushPage.swift
msgid "Save"
msgstr "Guardar"

#: Sources/Web/ScheduleEditPage.swift
msgid "Name the people of the rotation, one per line"
msgstr "Indica las personas de la rotación, una por línea"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "At most {1} people (lines) in a rotation"
msgstr "Como máximo {1} personas (líneas) en una rotación"

#: Sources/Web/ScheduleEditPage.swift
msgid "Every is a whole number from 1 to 1000"
msgstr "«Cada» es un número entero de 1 a 1000"

#: Sources/Web/ScheduleEditPage.swift
msgid "The handoff unit is hours, days, weeks or months"
msgstr "La unidad del relevo es horas, días, semanas o meses"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "The layer is a whole number from 0 to {1}"
msgstr "La capa es un número entero de 0 a {1}"

#: Sources/Web/ScheduleEditPage.swift
msgid "First handoff"
msgstr "Primer relevo"

#: Sources/Web/ScheduleEditPage.swift
msgid "Choose two different people"
msgstr "Elige dos personas distintas"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person’s duty from"
msgstr "Guardia de la primera persona desde"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person’s until"
msgstr "Primera persona hasta"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person’s duty from"
msgstr "Guardia de la segunda persona desde"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person’s until"
msgstr "Segunda persona hasta"

#: Sources/Web/ScheduleEditPage.swift
msgid "Each until must be after its from"
msgstr "Cada «hasta» debe ser posterior a su «desde»"

#: Sources/Web/ScheduleEditPage.swift Sources/Web/WebApp.swift
msgid "Admins only"
msgstr "Solo para admins"

#: Sources/Web/ScheduleEditPage.swift
msgid "Rotations and swaps are changed by an admin, signed in here."
msgstr "Las rotaciones y los intercambios los cambia un admin con sesión iniciada aquí."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ScheduleEditPage.swift
msgid "Change — {1}"
msgstr "Cambiar — {1}"

#: Sources/Web/ScheduleEditPage.swift
msgid "Change the schedule"
msgstr "Cambiar el calendario"

#: Sources/Web/ScheduleEditPage.swift
msgid "Add a rotation"
msgstr "Añadir una rotación"

#: Sources/Web/ScheduleEditPage.swift
msgid "People, in turn order"
msgstr "Personas, por orden de turno"

#: Sources/Web/ScheduleEditPage.swift
msgid "One per line (full name or id); “Ada Lovelace + Alan Turing” share a turn"
msgstr "Una por línea (nombre completo o id); «Ada Lovelace + Alan Turing» comparten un turno"

#: Sources/Web/ScheduleEditPage.swift
msgid "Hand off every"
msgstr "Relevo cada"

#: Sources/Web/ScheduleEditPage.swift
msgid "Unit"
msgstr "Unidad"

#: Sources/Web/ScheduleEditPage.swift
msgid "hours"
msgstr "horas"

#: Sources/Web/ScheduleEditPage.swift
msgid "days"
msgstr "días"

#: Sources/Web/ScheduleEditPage.swift
msgid "weeks"
msgstr "semanas"

#: Sources/Web/ScheduleEditPage.swift
msgid "months"
msgstr "meses"

#: Sources/Web/ScheduleEditPage.swift
msgid "Layer (the highest with anyone on duty wins)"
msgstr "Capa (gana la más alta con alguien de guardia)"

#: Sources/Web/ScheduleEditPage.swift
msgid "Swap duty"
msgstr "Intercambiar guardias"

#: Sources/Web/ScheduleEditPage.swift
msgid "First person"
msgstr "Primera persona"

#: Sources/Web/ScheduleEditPage.swift
msgid "Second person"
msgstr "Segunda persona"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "Days from {1} to {2}"
msgstr "Días del {1} al {2}"

#: Sources/Web/SchedulePage+Timeline.swift
msgid "Nothing in this window."
msgstr "Nada en esta ventana."

#: Sources/Web/SchedulePage+Timeline.swift
msgid "Now"
msgstr "Ahora"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "More than {1} stretches: the first ones are drawn."
msgstr "Más de {1} tramos: se dibujan los primeros."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage+Timeline.swift
msgid "Override: {1}"
msgstr "Sustitución: {1}"

#: Sources/Web/SchedulePage.swift
msgid "Final schedule"
msgstr "Calendario final"

#: Sources/Web/SchedulePage.swift
msgid "Temporary schedules"
msgstr "Calendarios temporales"

#: Sources/Web/SchedulePage.swift
msgid "Time off"
msgstr "Ausencias"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "{1} off"
msgstr "{1} ausente"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "Layer {1} ({2} rotation)"
msgid_plural "Layer {1} ({2} rotations)"
msgstr[0] "Capa {1} ({2} rotación)"
msgstr[1] "Capa {1} ({2} de rotaciones)"
msgstr[2] "Capa {1} ({2} rotaciones)"

#: Sources/Web/SchedulePage.swift
msgid "One-off shifts"
msgstr "Turnos puntuales"

#: Sources/Web/SchedulePage.swift
msgid "Overrides"
msgstr "Sustituciones"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "This schedule could not be drawn for this window: {1}"
msgstr "No se pudo dibujar este calendario para esta ventana: {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "{1} — schedule"
msgstr "{1} — calendario"

#: Sources/Web/SchedulePage.swift
msgid "The same stretches as a table"
msgstr "Los mismos tramos en una tabla"

#: Sources/Web/SchedulePage.swift Sources/Web/WebPage.swift
msgid "Schedules"
msgstr "Calendarios"

#: Sources/Web/SchedulePage.swift
msgid "Nobody on duty"
msgstr "Nadie de guardia"

#: Sources/Web/SchedulePage.swift
msgid "Timeline"
msgstr "Cronología"

#: Sources/Web/SchedulePage.swift
msgid "← Previous"
msgstr "← Anterior"

#: Sources/Web/SchedulePage.swift
msgid "Today"
msgstr "Hoy"

#: Sources/Web/SchedulePage.swift
msgid "Next →"
msgstr "Siguiente →"

#: Sources/Web/SchedulePage.swift
msgid "View in:"
msgstr "Ver en:"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/SchedulePage.swift
msgid "Schedule zone ({1})"
msgstr "Zona del calendario ({1})"

#: Sources/Web/SchedulePage.swift
msgid "Browser zone"
msgstr "Zona del navegador"

#: Sources/Web/SchedulePage.swift
msgid "Add a rotation or swap"
msgstr "Añadir una rotación o un intercambio"

#: Sources/Web/SchedulePage.swift
msgid "Changes to this schedule"
msgstr "Cambios en este calendario"

#: Sources/Web/SchedulePage.swift
msgid "Who"
msgstr "Quién"

#: Sources/Web/SchedulePage.swift
msgid "Action"
msgstr "Acción"

#: Sources/Web/SchedulePage.swift
msgid "Override…"
msgstr "Sustituir…"

#: Sources/Web/ServicePage.swift Sources/Web/WebPage.swift
msgid "Services"
msgstr "Servicios"

#: Sources/Web/ServicePage.swift
msgid "No services yet: an admin adds them in a definition file."
msgstr "Aún no hay servicios: un admin los añade en un archivo de definición."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "policy {1}"
msgstr "política {1}"

#: Sources/Web/ServicePage.swift
msgid "No such service"
msgstr "No existe ese servicio"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "There is no service named “{1}”."
msgstr "No hay ningún servicio llamado «{1}»."

#: Sources/Web/ServicePage.swift
msgid "All services"
msgstr "Todos los servicios"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Pages through the escalation policy {1}."
msgstr "Avisa mediante la política de escalado {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "It runs again {1} time after its last step."
msgid_plural "It runs again {1} times after its last step."
msgstr[0] "Se repite {1} vez tras su último paso."
msgstr[1] "Se repite {1} veces tras su último paso."
msgstr[2] "Se repite {1} veces tras su último paso."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Team {1}."
msgstr "Equipo {1}."

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Times in {1}."
msgstr "Horas en {1}."

#: Sources/Web/ServicePage.swift
msgid "Paged now"
msgstr "Avisado ahora"

#: Sources/Web/ServicePage.swift
msgid "If a page started now"
msgstr "Si un aviso empezara ahora"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "The policy could not be worked out now: {1}"
msgstr "No se pudo calcular la política ahora: {1}"

#: Sources/Web/ServicePage.swift
msgid "Step"
msgstr "Paso"

#: Sources/Web/ServicePage.swift
msgid "At"
msgstr "A las"

#: Sources/Web/ServicePage.swift Sources/Web/WebPage.swift
msgid "Pages"
msgstr "Páginas"

#: Sources/Web/ServicePage.swift
msgid "How"
msgstr "Cómo"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Step {1}"
msgstr "Paso {1}"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Step {1}, repeat {2}"
msgstr "Paso {1}, repetición {2}"

#: Sources/Web/ServicePage.swift
msgid "in turn"
msgstr "por turnos"

#: Sources/Web/ServicePage.swift
msgid "no change planned"
msgstr "sin cambios previstos"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/ServicePage.swift
msgid "Nobody: the page still waits {1} min"
msgstr "Nadie: el aviso espera igualmente {1} min"

#: Sources/Web/ServicePage.swift
msgid "named in the step"
msgstr "nombrado en el paso"

#: Sources/Web/SignIn.swift
msgid "A token from roster-server token create (the demo writes roster-data/admin.token). This browser keeps a session, not the token; signing out ends it."
msgstr "Un token de roster-server token create (la demo escribe roster-data/admin.token). Este navegador guarda una sesión, no el token; cerrar sesión la termina."

#: Sources/Web/SignIn.swift Sources/Web/WebApp.swift
msgid "That token is not valid (wrong, revoked or expired)."
msgstr "Ese token no es válido (erróneo, revocado o caducado)."

#: Sources/Web/SignIn.swift Sources/Web/SignInWithProvider.swift
msgid "This server holds as many sessions as it may; try again later."
msgstr "Este servidor tiene tantas sesiones como puede; inténtalo más tarde."

#: Sources/Web/SignIn.swift
msgid "Refused"
msgstr "Rechazado"

#: Sources/Web/SignIn.swift
msgid "This change did not come from this server’s own page (its CSRF check failed). Reload the page and try again."
msgstr "Este cambio no vino de una página de este servidor (falló su comprobación CSRF). Recarga la página e inténtalo de nuevo."

#: Sources/Web/SignIn.swift Sources/Web/WebApp.swift
msgid "Not signed in"
msgstr "Sin sesión iniciada"

#: Sources/Web/SignIn.swift
msgid "Sign in to make changes."
msgstr "Inicia sesión para hacer cambios."

#: Sources/Web/SignInWithProvider.swift
msgid "Signed in"
msgstr "Sesión iniciada"

#: Sources/Web/SignInWithProvider.swift
msgid "Continue"
msgstr "Continuar"

#: Sources/Web/SignInWithProvider.swift
msgid "This sign-in was started in another browser. Start again from the sign-in page."
msgstr "Este inicio de sesión se empezó en otro navegador. Vuelva a empezar desde la página de inicio de sesión."

#: Sources/Web/SignInWithProvider.swift
msgid "Sign-in refused"
msgstr "Inicio de sesión rechazado"

#: Sources/Web/TimelineWindow.swift
msgid "1 week"
msgstr "1 semana"

#: Sources/Web/TimelineWindow.swift
msgid "2 weeks"
msgstr "2 semanas"

#: Sources/Web/TimelineWindow.swift
msgid "1 month"
msgstr "1 mes"

#: Sources/Web/TimelineWindow.swift
msgid "span is 1w, 2w or 1m"
msgstr "span es 1w, 2w o 1m"

#: Sources/Web/TimelineWindow.swift
msgid "tz is schedule, utc or a zone name such as Europe/Berlin"
msgstr "tz es schedule, utc o un nombre de zona como Europe/Berlin"

#: Sources/Web/TimelineWindow.swift
msgid "the schedule’s zone is unknown here"
msgstr "la zona del calendario es desconocida aquí"

#: Sources/Web/TimelineWindow.swift
msgid "start is a date, YYYY-MM-DD"
msgstr "start es una fecha, AAAA-MM-DD"

#: Sources/Web/WebApp.swift
msgid "Not here"
msgstr "Aquí no"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebApp.swift
msgid "This page does not take {1} requests."
msgstr "Esta página no acepta peticiones {1}."

#: Sources/Web/WebApp.swift
msgid "Unknown grouping"
msgstr "Agrupación desconocida"

#: Sources/Web/WebApp.swift
msgid "Group people by position or team."
msgstr "Agrupa a las personas por puesto o equipo."

#: Sources/Web/WebApp.swift
msgid "Sign in with your token to read this server."
msgstr "Inicia sesión con tu token para leer este servidor."

#: Sources/Web/WebApp.swift
msgid "Starting"
msgstr "Iniciando"

#: Sources/Web/WebApp.swift
msgid "The server is starting: try again in a moment."
msgstr "El servidor se está iniciando: inténtalo de nuevo en un momento."

#: Sources/Web/WebApp.swift
msgid "No such schedule"
msgstr "No existe ese calendario"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebApp.swift
msgid "There is no schedule named “{1}”."
msgstr "No hay ningún calendario llamado «{1}»."

#: Sources/Web/WebApp.swift
msgid "All schedules"
msgstr "Todos los calendarios"

#: Sources/Web/WebPage.swift
msgid "Skip to content"
msgstr "Saltar al contenido"

#: Sources/Web/WebPage.swift
msgid "admin"
msgstr "admin"

#: Sources/Web/WebPage.swift
msgid "reader"
msgstr "lector"

#. {1}, {2}... are values put in the text; keep each once.
#: Sources/Web/WebPage.swift
msgid "Signed in: {1} ({2})"
msgstr "Sesión iniciada: {1} ({2})"

#: Sources/Web/WebPage.swift
msgid "Sign out"
msgstr "Cerrar sesión"

#: Sources/Web/WebPage.swift
msgid "Language"
msgstr "Idioma"

#: Sources/Web/WebPage.swift
msgid "As the browser asks"
msgstr "Según el navegador"

#: Sources/Web/WebPage.swift
msgid "Change"
msgstr "Cambiar"
"""#
}
