// Moa — names to values for the lookups equation text makes: views by name, attributes by name.

/// A table from names to values: linear probing in one array, a seeded multiply-xorshift hash of the name's
/// UTF-8 bytes. Parsing a line of equation text looks up two views and one or two attributes; with Dictionary
/// the seeded SipHash of the names was most of each lookup. The seed is random per process (as Dictionary's),
/// so a host cannot be handed names chosen to collide. Keys are ASCII identifiers (view and attribute names):
/// a name's bytes are its identity, and the hash reads the bytes.
struct NameTable<Value> {
    fileprivate struct Entry {
        var hash: UInt64
        var name: String
        var value: Value
    }

    private var slots: [Entry?]
    private(set) var count = 0

    init(minimumCapacity: Int = 8) {
        var n = 8
        while n < 2 * minimumCapacity { n *= 2 }
        slots = Array(repeating: nil, count: n)
    }

    static func hash(_ name: String) -> UInt64 {
        let start = nameTableSeed ^ UInt64(truncatingIfNeeded: name.utf8.count)
        return name.utf8.withContiguousStorageIfAvailable { b in hashBytes(UnsafeRawBufferPointer(b), start) }
            ?? Array(name.utf8).withUnsafeBytes { hashBytes($0, start) }   // not contiguous (bridged): copied
    }

    /// The bytes eight at a time (the tail zero-padded), each word mixed in by a multiply and a shift.
    @inline(__always)
    private static func hashBytes(_ raw: UnsafeRawBufferPointer, _ start: UInt64) -> UInt64 {
        var h = start
        var i = 0
        while i + 8 <= raw.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < raw.count { tail |= UInt64(raw[i]) << shift; shift &+= 8; i += 1 }
        h = (h ^ tail) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 32)
    }

    private var mask: Int { slots.count - 1 }

    /// The slot holding `name`, or nil.
    private func find(_ name: String, _ h: UInt64) -> Int? {
        var i = Int(truncatingIfNeeded: h) & mask
        while let e = slots[i] {
            if e.hash == h, e.name == name { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    subscript(name: String) -> Value? {
        get { find(name, NameTable.hash(name)).flatMap { slots[$0]?.value } }
        set {
            let h = NameTable.hash(name)
            if let i = find(name, h) {
                if let newValue { slots[i]!.value = newValue } else { remove(at: i) }
                return
            }
            guard let newValue else { return }
            if 2 * (count + 1) > slots.count { grow() }
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i] != nil { i = (i + 1) & mask }
            slots[i] = Entry(hash: h, name: name, value: newValue)
            count += 1
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: 2 * old.count)
        for case let e? in old {
            var i = Int(truncatingIfNeeded: e.hash) & mask
            while slots[i] != nil { i = (i + 1) & mask }
            slots[i] = e
        }
    }

    /// Empties slot `hole` and moves later entries of its probe run back, so that no lookup meets a gap
    /// before its entry (deletion without tombstones).
    private mutating func remove(at hole: Int) {
        var hole = hole
        slots[hole] = nil
        count -= 1
        var j = hole
        while true {
            j = (j + 1) & mask
            guard let e = slots[j] else { return }
            let home = Int(truncatingIfNeeded: e.hash) & mask
            // The entry may move to the hole when its home is not cyclically within (hole, j].
            let within = hole < j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !within {
                slots[hole] = e
                slots[j] = nil
                hole = j
            }
        }
    }
}

/// Drawn once per process (the standard library's generator: no Foundation), as Dictionary's seed: names chosen
/// to collide in one run do not collide in another.
private let nameTableSeed = UInt64.random(in: .min ... .max)

extension NameTable: Sendable where Value: Sendable {}
extension NameTable.Entry: Sendable where Value: Sendable {}
