// Moa — the tableau's ids: dense Int32 indices wrapped in a type per kind, so that a symbol, a row and an
// objective level cannot be mixed up (each indexes its own arrays), at no cost once inlined.

/// A dense index into the tableau's arrays of one kind (`Kind`: symbols, rows or levels). Negative values
/// stand for "none".
@usableFromInline struct TableauID<Kind>: Hashable, Comparable, Sendable {
    @usableFromInline var raw: Int32
    @inline(__always) init(_ raw: Int32) { self.raw = raw }
    @inline(__always) init(_ index: Int) { raw = Int32(truncatingIfNeeded: index) }
    /// No id.
    static var none: TableauID { TableauID(Int32(-1)) }
    /// True for a real id (not `none`).
    @inline(__always) var isValid: Bool { raw >= 0 }
    @inline(__always) var index: Int { Int(raw) }
    @inlinable static func < (a: TableauID, b: TableauID) -> Bool { a.raw < b.raw }
}

@usableFromInline enum SymbolKindTag {}
@usableFromInline enum RowKindTag {}
@usableFromInline enum LevelKindTag {}

/// A tableau symbol: an index into the per-symbol arrays (`Tableau.kind`, `.cols`, a level's `coef`, ...).
@usableFromInline typealias Sym = TableauID<SymbolKindTag>
/// A tableau row: an index into `Tableau.rows` and the other per-row arrays.
@usableFromInline typealias RowID = TableauID<RowKindTag>
/// An objective level (one per priority in use): an index into `Tableau.levels`.
@usableFromInline typealias LevelID = TableauID<LevelKindTag>

extension Array {
    /// The element at a tableau id, in an array indexed by that kind of id.
    @inline(__always) subscript<Kind>(id: TableauID<Kind>) -> Element {
        _read { yield self[Int(id.raw)] }
        _modify { yield &self[Int(id.raw)] }
    }
}
