/// A short list whose first element is stored inline, the rest in an array allocated only for a
/// second one. A connection holds one subscription far more often than several (at most
/// `maxSubscriptions`, 16 by default), and an idle subscriber should cost as little memory as
/// possible: one subscription then costs no allocation here, where a `Set` or `Dictionary`
/// costs one of 80–100 bytes, and finding it is a comparison, not a hash.
struct InlineFirstArray<Element>: RandomAccessCollection {
    private var head: Element?
    private var tail: [Element] = []

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { head == nil ? 0 : 1 + tail.count }

    subscript(position: Int) -> Element {
        position == 0 ? head! : tail[position - 1]
    }

    mutating func append(_ element: Element) {
        if head == nil { head = element } else { tail.append(element) }
    }

    /// Removes and returns the element at `position`; later elements move up by one.
    @discardableResult
    mutating func remove(at position: Int) -> Element {
        guard position == 0 else { return tail.remove(at: position - 1) }
        let removed = head!
        head = tail.isEmpty ? nil : tail.removeFirst()
        return removed
    }

    mutating func removeAll() {
        head = nil
        tail = []
    }
}

extension InlineFirstArray: Equatable where Element: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}

/// A connection's subscription ids, in the order they were added.
struct SubscriptionIDs: Equatable, Sequence, ExpressibleByArrayLiteral {
    private var ids = InlineFirstArray<UInt64>()

    init(arrayLiteral elements: UInt64...) {
        for id in elements { insert(id) }
    }

    var count: Int { ids.count }
    var isEmpty: Bool { ids.isEmpty }

    func contains(_ id: UInt64) -> Bool {
        for candidate in ids where candidate == id { return true }
        return false
    }

    mutating func insert(_ id: UInt64) {
        if !contains(id) { ids.append(id) }
    }

    /// Returns the id if it was there.
    @discardableResult
    mutating func remove(_ id: UInt64) -> UInt64? {
        guard let index = ids.firstIndex(of: id) else { return nil }
        return ids.remove(at: index)
    }

    mutating func removeAll() { ids.removeAll() }

    func makeIterator() -> IndexingIterator<InlineFirstArray<UInt64>> { ids.makeIterator() }

    /// The same ids whatever the order they were added in.
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.count == rhs.count && lhs.allSatisfy(rhs.contains) }
}
