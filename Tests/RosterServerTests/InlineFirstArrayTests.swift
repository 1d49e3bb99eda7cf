import PropertyBased
import Testing
@testable import RosterServer
@testable import RosterServerCore

/// The connection's small lists against the standard collections they replace.
@Suite(.timeLimit(.minutes(10)))
struct InlineFirstArrayTests {
    /// Random appends and removals (an operation: a value to append, or a position to remove
    /// from) keep the same elements in the same order as an Array.
    @Test func behavesAsAnArray() async {
        let operations = zip(Gen.bool, Gen.int(in: 0...20)).array(of: 0...60)
        await propertyCheck(count: 300, input: operations) { operations in
            var list = InlineFirstArray<Int>()
            var model: [Int] = []
            for (isAppend, value) in operations {
                if isAppend || model.isEmpty {
                    list.append(value)
                    model.append(value)
                } else {
                    let position = value % model.count
                    #expect(list.remove(at: position) == model.remove(at: position))
                }
                #expect(Array(list) == model)
                #expect(list.count == model.count && list.isEmpty == model.isEmpty)
            }
            list.removeAll()
            #expect(list.isEmpty)
        }
    }

    /// Inserting, removing and looking up ids gives what a Set gives, and equality ignores order.
    @Test func subscriptionIDsBehaveAsASet() async {
        let operations = zip(Gen.int(in: 0...2), Gen.int(in: 1...8)).array(of: 0...60)
        await propertyCheck(count: 300, input: operations) { operations in
            var ids = SubscriptionIDs()
            var model = Set<UInt64>()
            for (operation, value) in operations {
                let id = UInt64(value)
                switch operation {
                case 0:
                    ids.insert(id)
                    model.insert(id)
                case 1: #expect(ids.remove(id) == model.remove(id))
                default: #expect(ids.contains(id) == model.contains(id))
                }
                #expect(Set(ids) == model && ids.count == model.count)
            }
            var reversed = SubscriptionIDs()
            for id in Array(ids).reversed() { reversed.insert(id) }
            #expect(reversed == ids)
        }
        #expect(SubscriptionIDs(arrayLiteral: 1, 2) != [1, 3])
    }
}
