import PropertyBased
import RosterDomain
import Testing

/// The shift table answers "which shifts overlap this window" as a filter over every shift would,
/// and the on-duty index built from it (the horizon near now, every later shift when nothing
/// changes inside it) answers as the engine over the whole plan.
@Suite(.timeLimit(.minutes(10))) struct ShiftTableTests {
    static let day: UnixMillis = 86_400_000
    static let schedules = ["", ScheduleDefinition.defaultID, "b"]

    /// Shifts from minutes to twenty weeks long (so some are "long" and kept outside the weeks),
    /// over about a year either side of the epoch, some deleted or moved again afterwards.
    static let editsGen = zip(
        zip(Gen.int(in: 0...5), Gen.int(in: -400...400), Gen.int(in: 1...(140 * 24)), Gen.int(in: 0...2)).array(
            of: 0...40),
        Gen.int(in: 0...60).array(of: 0...15)
    )

    static func shift(_ index: Int, _ item: (Int, Int, Int, Int)) -> Shift {
        Shift(
            id: "s\(index)", employeeID: "e\(item.0)", start: UnixMillis(item.1) * day,
            end: UnixMillis(item.1) * day + UnixMillis(item.2) * 3_600_000, scheduleID: schedules[item.3])
    }

    @Test func overlappingIsTheFilterOverEveryShift() async {
        await propertyCheck(count: 300, input: zip(Self.editsGen, Gen.int(in: -420...420).array(of: 1...6))) {
            edits, windows in
            let (raw, removals) = edits
            var table = ShiftTable()
            var plain: [String: Shift] = [:]
            for (index, item) in raw.enumerated() {
                let shift = Self.shift(index, item)
                table[shift.id] = shift
                plain[shift.id] = shift
            }
            for removal in removals where !raw.isEmpty {
                let id = "s\(removal % raw.count)"
                if removal % 3 == 0, var moved = plain[id] {  // moved, not removed: unfiled from its old weeks
                    moved.start += 9 * Self.day
                    moved.end += 9 * Self.day
                    table[id] = moved
                    plain[id] = moved
                } else {
                    table[id] = nil
                    plain[id] = nil
                }
            }
            #expect(table.count == plain.count)
            #expect(Set(table.values.map(\.id)) == Set(plain.keys))
            #expect(table == ShiftTable(plain.values.reversed()), "equal whatever the order of insertion")
            for person in (0...5).map({ "e\($0)" }) {
                let expected = Set(
                    plain.values.filter { $0.employeeID == person }.map { ShiftTable.scheduleKey($0.scheduleID) })
                #expect(table.schedules(ofEmployee: person) == expected, "\(person)")
            }
            for schedule in ["", "b"] {
                let mine = plain.values.filter {
                    ShiftTable.scheduleKey($0.scheduleID) == ShiftTable.scheduleKey(schedule)
                }
                #expect(Set(table.all(schedule: schedule)) == Set(mine))
                #expect(table.holdsShifts(schedule: schedule) == !mine.isEmpty)
                for start in windows {
                    let from = UnixMillis(start) * Self.day, to = from + UnixMillis(abs(start) % 50 + 1) * Self.day
                    let expected = mine.filter { $0.start < to && $0.end > from }
                    // Sorted ids, not sets: a shift filed under several weeks must come once.
                    #expect(
                        table.overlapping(schedule: schedule, from: from, to: to).map(\.id).sorted()
                            == expected.map(\.id).sorted(),
                        "[\(from), \(to))")
                }
            }
        }
    }

    @Test func theIndexOfOneOffShiftsAnswersAsTheEngineOverTheWholePlan() async {
        let employees = Dictionary(
            uniqueKeysWithValues: (0..<6).map {
                ("e\($0)", Employee(id: "e\($0)", firstName: "P\($0)", lastName: "L\(5 - $0)"))
            })
        await propertyCheck(count: 200, input: zip(Self.editsGen, Gen.int(in: -450...450).array(of: 1...12))) {
            edits, probes in
            let shifts = edits.0.enumerated().map { Self.shift($0, $1) }.filter { $0.scheduleID != "b" }
            let state = RosterState(
                tenant: Tenant(id: "t", name: "T"), employees: Array(employees.values), shifts: shifts)
            let engine = OnDutyEngine(shifts: shifts, employees: EmployeeDirectory(employees))
            for probe in probes {
                let instant = UnixMillis(probe) * Self.day + UnixMillis(probe & 7) * 3_600_000
                #expect(state.onDuty(at: instant) == engine.lookup(at: instant), "at \(instant)")
            }
        }
    }

    @Test func aFarShiftIsStillTheNextChange() throws {
        let far = Shift(id: "far", employeeID: "e0", start: 3 * 365 * Self.day, end: 3 * 365 * Self.day + Self.day)
        let state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: [Employee(id: "e0", firstName: "A", lastName: "B")],
            shifts: [far])
        let lookup = try #require(state.onDuty(at: 0))
        #expect(lookup.current.isEmpty && lookup.until == far.start && lookup.next == [far])
    }
}
