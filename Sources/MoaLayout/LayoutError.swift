// Moa — what a failing layout call reports: kind, message, where in the text, what was expected, conflicts.

/// A snapshot of a constraint as an error or report names it: the equation text and where it came from.
public struct ConstraintInfo: Hashable, Sendable, CustomStringConvertible {
    /// The constraint's id in its layout (`LayoutConstraint.id`); look it up with `Layout.constraint(id:)`.
    public var id: Int
    /// The equation that would create the constraint, e.g. `table.top == calendar.bottom + 8 @ 750`.
    public var equation: String
    /// The line it came from (1-based) when it came from `eqs`, else nil.
    public var line: Int?
    /// The source name given to `eqs(_:source:)`, if any.
    public var source: String?
    /// What made the constraint when it is not a user equation, e.g. `compression resistance of label's
    /// intrinsic width`, `root size`, `safe area`.
    public var note: String?

    /// Creates a snapshot.
    public init(id: Int, equation: String, line: Int? = nil, source: String? = nil, note: String? = nil) {
        self.id = id
        self.equation = equation
        self.line = line
        self.source = source
        self.note = note
    }

    /// The equation in backquotes with its origin: `` `a.left == root.left` (line 3) ``,
    /// `` `label.width >= 120 @ 750` (compression resistance of label's intrinsic width) ``.
    public var description: String {
        var s = "`\(equation)`"
        var where_: [String] = []
        if let line {
            where_.append(source.map { "\($0):\(line)" } ?? "line \(line)")
        } else if let source {
            where_.append(source)
        }
        if let note { where_.append(note) }
        if !where_.isEmpty { s += " (" + where_.joined(separator: ", ") + ")" }
        return s
    }
}

/// Why a layout call failed. Every failing call leaves the layout exactly as it was.
public struct LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of the failure. The C layer maps each to a `moa_status`.
    public enum Kind: String, Sendable, CaseIterable {
        /// The equation text does not follow the grammar (or has tokens left over).
        case parse
        /// An equation names a view that does not exist.
        case unknownView
        /// An equation names an attribute that does not exist (or does not fit there).
        case unknownAttribute
        /// A required constraint cannot hold; `conflicts` names the required constraints it fights.
        case unsatisfiable
        /// A value or a combination is not allowed: NaN or infinite numbers, priorities outside 1...1000,
        /// attributes of different axes related, a bad view name, misuse of a layout-owned constraint.
        case invalid
        /// A name is already taken by another view of the layout.
        case duplicateName
        /// `xeq` names no existing constraint, or a lookup failed.
        case notFound
        /// The view or constraint was removed from its layout.
        case stale
        /// The superview change would make a view its own ancestor.
        case cycle
        /// The solver failed in a way that is not the caller's fault; please report it.
        case internalError
        /// A measure function failed (its message follows the view's name) or measured content did not settle
        /// within `Layout.maxMeasureRounds` solves.
        case callback
        /// A call in the wrong state: changing or solving the layout from inside one of its measure functions.
        case misuse
        /// A limit was reached (`Layout.limits`: the solver's rows or cells, the time a call may take) or the
        /// progress handler stopped the call; nothing changed.
        case limit
    }

    /// The class of the failure.
    public var kind: Kind
    /// What went wrong, without the location, e.g. ``unknown view `calender` ``. At most `maxMessage` (512)
    /// bytes when made: a longer one (quoting a huge name) keeps its start and end.
    public var message: String
    /// The line of the text (1-based) where the error is, when it comes from equation text.
    public var line: Int?
    /// The byte offset (0-based, UTF-8) into that line where the offending token starts.
    public var offset: Int?
    /// The byte offset (0-based, UTF-8) into the whole text given to `eqs`/`eq`.
    public var textOffset: Int?
    /// The length in bytes of the offending token (at least 1 when `offset` is set).
    public var length: Int?
    /// The text of the offending line.
    public var sourceLine: String?
    /// The source name given to `eqs(_:source:)`, if any.
    public var source: String?
    /// What would have been accepted at `offset`, e.g. ``["`==`", "`<=`", "`>=`"]``.
    public var expected: [String]
    /// A near name for an unknown view, attribute or priority (edit distance), e.g. `calendar`.
    public var suggestion: String?
    /// The constraint that failed (for `unsatisfiable`), as it would have been.
    public var constraint: ConstraintInfo?
    /// For `unsatisfiable`: a minimal set of existing required constraints that, with `constraint`, cannot
    /// all hold (drop any one and the rest can).
    public var conflicts: [ConstraintInfo]

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, line: Int? = nil, offset: Int? = nil, textOffset: Int? = nil,
                length: Int? = nil, sourceLine: String? = nil, source: String? = nil, expected: [String] = [],
                suggestion: String? = nil, constraint: ConstraintInfo? = nil, conflicts: [ConstraintInfo] = []) {
        self.kind = kind
        self.message = LayoutError.bounded(message)
        self.line = line
        self.offset = offset
        self.textOffset = textOffset
        self.length = length
        self.sourceLine = sourceLine
        self.source = source
        self.expected = expected
        self.suggestion = suggestion
        self.constraint = constraint
        self.conflicts = conflicts
    }

    /// The message with its location first and, for text errors, the line with a caret under the offending
    /// token (a line longer than `lineWindow` bytes is shown around the token, cut ends marked `…`):
    ///
    /// ```
    /// line 2, byte 0: unknown view `calender` (did you mean `calendar`?)
    ///     calender.top == 0
    ///     ^~~~~~~~
    /// ```
    public var description: String {
        var s = ""
        if let line {
            s += source.map { "\($0):\(line)" } ?? "line \(line)"
            if let offset { s += ", byte \(offset)" }
            s += ": "
        } else if let source {
            s += source + ": "
        }
        s += message
        if let sourceLine, let offset {
            // A long line is shown around the offending token only (a 10 MB line must not make a 20 MB message).
            let bytes = Array(sourceLine.utf8)
            let at = min(offset, bytes.count)
            var start = 0, end = bytes.count
            if bytes.count > LayoutError.lineWindow {
                start = LayoutError.boundary(bytes, max(0, at - LayoutError.lineWindow / 2))
                end = LayoutError.boundary(bytes, min(bytes.count, at + LayoutError.lineWindow / 2))
            }
            let lead = start > 0 ? "…" : ""
            s += "\n    " + lead + String(decoding: bytes[start..<end], as: UTF8.self) + (end < bytes.count ? "…" : "")
            s += "\n    " + (start > 0 ? " " : "")
            // Caret under the token: count characters (not bytes) before the offset for the indentation.
            let pre = String(decoding: bytes[start..<max(start, at)], as: UTF8.self)
            for ch in pre { s += ch == "\t" ? "\t" : " " }
            let shown = max(1, min(length ?? 1, end - at))
            s += "^" + String(repeating: "~", count: shown - 1)
        }
        return s
    }

    /// The longest part of an equation line `description` shows (bytes): the offending token and what is
    /// around it.
    public static let lineWindow = 160
    /// The longest message kept (bytes). Messages quote the caller's text (a name, a number); a longer one
    /// keeps its start and end around a note of how much was left out.
    public static let maxMessage = 512

    /// `message` cut to `maxMessage` bytes: its first and last bytes around "…(N bytes left out)…".
    static func bounded(_ message: String) -> String {
        let bytes = Array(message.utf8)
        guard bytes.count > maxMessage else { return message }
        let head = boundary(bytes, maxMessage * 2 / 3)
        let tail = boundary(bytes, bytes.count - maxMessage / 4)
        return String(decoding: bytes[..<head], as: UTF8.self) + "…(\(tail - head) bytes left out)…"
            + String(decoding: bytes[tail...], as: UTF8.self)
    }

    /// `i` moved back to the start of the UTF-8 character it falls in (so that a cut never splits one).
    static func boundary(_ bytes: [UInt8], _ i: Int) -> Int {
        var j = i
        while j > 0, j < bytes.count, bytes[j] & 0xC0 == 0x80 { j -= 1 }
        return j
    }

}
