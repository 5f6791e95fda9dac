// Moa — the tableau's column index: for each symbol, the rows that hold it.

/// For each symbol, references (row, cell index) to the cells that hold it, in the order of a list: entry `i`
/// of symbol `s` is `self[s][i]`, and removal is a swap-remove done by the tableau (`removeLast` then `set`).
///
/// Most symbols are held by one row at most (a variable in its definition, a marker in its constraint's row),
/// so a symbol's first entry lives in one dense array and only the others in an array of the symbol's own. An
/// array per symbol was a third of the heap blocks of a large tableau, and freeing them a third of removing a
/// layout's main container. A list that empties gives its array back (a row made passive leaves the active
/// columns for good); a list that shrinks keeps its capacity for the next pivot.
struct ColumnIndex {
    private var heads: [ColRef] = []      // by symbol: entry 0 (`heads[s].row` is none when the list is empty)
    private var tails: [[ColRef]] = []    // by symbol: entries 1...

    /// The entries of one symbol, as a collection (read only; it keeps the other entries' array alive).
    struct Entries: RandomAccessCollection {
        let head: ColRef
        let tail: [ColRef]
        var startIndex: Int { 0 }
        var endIndex: Int { head.row.isValid ? tail.count + 1 : 0 }
        @inline(__always) subscript(i: Int) -> ColRef { i == 0 ? head : tail[i - 1] }
    }

    static var empty: ColRef { ColRef(row: .none, cell: -1) }

    /// The number of symbols.
    var symbolCount: Int { heads.count }

    @inline(__always) subscript(s: Sym) -> Entries { Entries(head: heads[s], tail: tails[s]) }

    /// The number of entries of `s`. (This and the three below read without making `Entries`, which retains
    /// the other entries' array: candidate choice and substitution ask them once a symbol.)
    @inline(__always) func count(_ s: Sym) -> Int { heads[s].row.isValid ? tails[s].count + 1 : 0 }

    /// Whether `s` has no entry.
    @inline(__always) func isEmpty(_ s: Sym) -> Bool { !heads[s].row.isValid }

    /// The first entry of `s`, if any.
    @inline(__always) func first(_ s: Sym) -> ColRef? { heads[s].row.isValid ? heads[s] : nil }

    /// The last entry of `s`, if any.
    @inline(__always) func last(_ s: Sym) -> ColRef? {
        if let ref = tails[s].last { return ref }
        return first(s)
    }

    /// The number of entries of the symbol with the most.
    var longest: Int {
        var n = 0
        for s in heads.indices where heads[s].row.isValid { n = max(n, tails[s].count + 1) }
        return n
    }

    /// Adds `n` symbols with no entries.
    mutating func appendSymbols(_ n: Int) {
        heads.append(contentsOf: repeatElement(ColumnIndex.empty, count: n))
        tails.append(contentsOf: repeatElement([], count: n))
    }

    /// Removes the last `n` symbols.
    mutating func removeLastSymbols(_ n: Int) {
        heads.removeLast(n)
        tails.removeLast(n)
    }

    /// Empties the list of `s`.
    mutating func clear(_ s: Sym) {
        heads[s] = ColumnIndex.empty
        if tails[s].capacity > 0 { tails[s] = [] }
    }

    /// Appends an entry to `s`'s list; returns its index there.
    @inline(__always) mutating func append(_ s: Sym, _ ref: ColRef) -> Int32 { withEditor { $0.append(s, ref) } }

    /// Removes and returns the last entry of `s`'s list, which must not be empty.
    @inline(__always) mutating func removeLast(_ s: Sym) -> ColRef { withEditor { $0.removeLast(s) } }

    /// Replaces entry `i` of `s`'s list.
    @inline(__always) mutating func set(_ s: Sym, _ i: Int, _ ref: ColRef) { withEditor { $0.set(s, i, ref) } }

    /// Points entry `i` of `s`'s list at another cell of the same row.
    @inline(__always) mutating func setCell(_ s: Sym, _ i: Int, _ cell: Int32) {
        withEditor { $0.setCell(s, i, cell) }
    }

    /// Runs `body` with an editor of the index through raw buffers: the hot loop of a pivot
    /// (`Tableau.mergePivot`) edits columns with no uniqueness check of the two arrays at each access.
    @inline(__always) mutating func withEditor<R>(_ body: (inout Editor) -> R) -> R {
        heads.withUnsafeMutableBufferPointer { heads in
            tails.withUnsafeMutableBufferPointer { tails in
                var editor = Editor(heads: heads, tails: tails)
                return body(&editor)
            }
        }
    }

    /// The index's edits, on its arrays' buffers (valid inside `withEditor` only).
    struct Editor {
        let heads: UnsafeMutableBufferPointer<ColRef>
        let tails: UnsafeMutableBufferPointer<[ColRef]>

        @inline(__always) func count(_ s: Sym) -> Int { heads[s.index].row.isValid ? tails[s.index].count + 1 : 0 }

        @inline(__always) func append(_ s: Sym, _ ref: ColRef) -> Int32 {
            if !heads[s.index].row.isValid { heads[s.index] = ref; return 0 }
            tails[s.index].append(ref)
            return Int32(tails[s.index].count)
        }

        /// A list that empties gives its array back.
        @inline(__always) func removeLast(_ s: Sym) -> ColRef {
            if !tails[s.index].isEmpty { return tails[s.index].removeLast() }
            let ref = heads[s.index]
            heads[s.index] = ColumnIndex.empty
            if tails[s.index].capacity > 0 { tails[s.index] = [] }
            return ref
        }

        @inline(__always) func set(_ s: Sym, _ i: Int, _ ref: ColRef) {
            if i == 0 { heads[s.index] = ref } else { tails[s.index][i - 1] = ref }
        }

        @inline(__always) func setCell(_ s: Sym, _ i: Int, _ cell: Int32) {
            if i == 0 { heads[s.index].cell = cell } else { tails[s.index][i - 1].cell = cell }
        }
    }
}
