// Moa — stacks (UIKit's UIStackView): a view whose arranged subviews get constraints the stack owns and keeps
// current as views are added, inserted, removed, hidden or shown and as its properties change.
//
// The rules, for a horizontal stack (a vertical one swaps the axes; `leading`/`trailing` follow the direction):
// - the arranged views that are not hidden form a chain from the stack's leading edge to its trailing edge (its
//   margins with `isLayoutMarginsRelativeArrangement`);
// - between neighbours, the spacing (or the custom spacing after the earlier one); `equalSpacing` and
//   `equalCentering` put a spacer guide between them whose widths are equal and at least the spacing;
// - `fillEqually` and `fillProportionally` relate the widths (1 : 1, or as the intrinsic widths);
// - across the axis each view is placed by the alignment; for alignments other than `fill` the stack hugs its
//   tallest view (height 0 at priority 49, UIKit's fitting level) unless something else sizes it;
// - a hidden view leaves the chain: it is parked at zero width where it was (after the previous visible view),
//   and its spacing goes with it. Hiding and showing can animate: the view stays in the chain while its width and
//   the gaps next to it move to their new values on the layout's clock, then leaves (or rejoins) the rules.

/// How a stack sizes and spaces its arranged views along its axis (UIKit's `UIStackView.Distribution`).
public enum StackDistribution: String, Sendable, CaseIterable {
    /// The views fill the stack; their own constraints and content priorities decide who grows or shrinks.
    case fill
    /// The views fill the stack with equal sizes.
    case fillEqually
    /// The views fill the stack with sizes in proportion to their intrinsic sizes.
    case fillProportionally
    /// The views keep their sizes; the gaps between them are equal (and at least `spacing`).
    case equalSpacing
    /// The distances between the views' centres are equal (gaps at least `spacing`).
    case equalCentering
}

/// How a stack places its arranged views across its axis (UIKit's `UIStackView.Alignment`).
public enum StackAlignment: String, Sendable, CaseIterable {
    /// Each view spans the stack across the axis.
    case fill
    /// Along the leading edge (vertical stacks; `top` is the same rule in horizontal ones).
    case leading
    /// Along the top edge (horizontal stacks; `leading` in vertical ones).
    case top
    /// Centred across the axis.
    case center
    /// Along the trailing edge (vertical stacks; `bottom` in horizontal ones).
    case trailing
    /// Along the bottom edge (horizontal stacks; `trailing` in vertical ones).
    case bottom
    /// First baselines aligned (horizontal stacks; `fill` in vertical ones, as in UIKit).
    case firstBaseline
    /// Last baselines aligned (horizontal stacks; `fill` in vertical ones).
    case lastBaseline
}

/// A stack: a view whose arranged subviews the stack lays out along an axis (see the rules at the top of
/// `StackView.swift`). Made with `Layout.addStack(_:in:axis:)`; its `view` is an ordinary view that equations
/// place (`toolbar.top == root.top`). Every change is one call, all or nothing: a change that would make a
/// required constraint fail throws `.unsatisfiable` (naming the stack and the rule) and changes nothing.
public final class StackView: Arrangement {
    /// The stack's own view (it holds the arranged views as subviews).
    public let view: View
    /// The axis the views are arranged along.
    public private(set) var axis: LayoutAxis
    /// How the views are sized and spaced along the axis (default `.fill`).
    public private(set) var distribution: StackDistribution = .fill
    /// How the views are placed across the axis (default `.fill`).
    public private(set) var alignment: StackAlignment = .fill
    /// The gap between neighbours (a minimum for `equalSpacing` and `equalCentering`; default 0, as UIKit).
    public private(set) var spacing: Double = 0
    /// Arrange within the stack view's layout margins instead of its edges (default false).
    public private(set) var isLayoutMarginsRelativeArrangement = false
    /// The arranged views, in order (hidden ones included).
    public private(set) var arrangedViews: [View] = []

    /// A view's presence; the raw value is its two bits in a rule section's flags.
    enum Presence: UInt16 { case shown, hidden, hiding, showing }
    var presence: [ObjectIdentifier: Presence] = [:]
    /// Where a showing view ends up, from a trial solve with it shown: its size, and for every view of the chain
    /// its distance from the previous one (edge to edge, and centre to centre).
    var showSize: [ObjectIdentifier: Double] = [:]
    var trialLinks: [ObjectIdentifier: (edge: Double, center: Double)] = [:]
    /// Bumped per view at each hide/show, so an older animation's completion does not finish a newer change.
    var transition: [ObjectIdentifier: Int] = [:]
    var customSpacing: [ObjectIdentifier: Double] = [:]
    /// The fill distribution's tie-break weight of each arranged view (`fillOrder()`).
    var fillWeights: [ObjectIdentifier: Double] = [:]
    /// The spacer of the gap before each view (equalSpacing, equalCentering), but for the first gap, which
    /// always has spacer 0 (the one the others equal and the spacing bounds): kept while the view is arranged,
    /// so that hiding, removing or inserting a view changes the spacers of the gaps around it only (numbered
    /// along the stack, hiding one of 1,000 views remade every rule after it: 141 ms). `freeSpacers`: numbers
    /// no view holds.
    var spacerOf: [ObjectIdentifier: Int] = [:]
    var freeSpacers: [Int] = []
    var nextSpacerNumber = 1

    init(view: View, axis: LayoutAxis, layout: Layout) {
        self.view = view
        self.axis = axis
        super.init(layout: layout)
    }

    /// `stack 'toolbar'`.
    public override var title: String { "stack '\(view.name)'" }
    override var hostView: View? { view }

    /// True when the arranged view is hidden (or hiding).
    public func isHidden(_ v: View) -> Bool {
        let p = presence[ObjectIdentifier(v)]
        return p == .hidden || p == .hiding
    }

    /// The custom spacing after an arranged view, or nil when it uses `spacing`.
    public func customSpacing(after v: View) -> Double? { customSpacing[ObjectIdentifier(v)] }

    // MARK: - Changing the stack

    /// Appends `v` to the arranged views (UIKit's `addArrangedSubview`); it becomes a subview of the stack
    /// first if it is not one. Adding a view that is already arranged moves it to the end.
    /// - Throws: `.invalid` for the stack's own view, an ancestor of it, a guide or a view of another layout;
    ///   `.unsatisfiable`; `.stale`.
    public func addArrangedView(_ v: View) throws(LayoutError) {
        try insertArrangedView(v, at: arrangedViews.filter { $0 !== v }.count)
    }

    /// Inserts `v` at `index` (0...count) among the arranged views (see `addArrangedView`). A view arranged in
    /// another stack leaves it.
    public func insertArrangedView(_ v: View, at index: Int) throws(LayoutError) {
        try insertArrangedViews([v], at: index)
    }

    /// Inserts `views`, in order, at `index` (0...count of the arranged views not among them) as one change:
    /// all arranged, or (on failure) none. The same as inserting them one at a time, with one update of the
    /// stack's rules instead of one per view (a stack made with thousands of views at once).
    /// - Throws: as `insertArrangedView`; `.invalid` when a view is listed twice.
    public func insertArrangedViews(_ views: [View], at index: Int) throws(LayoutError) {
        let layout = try usableLayout()
        var listed = Set<ObjectIdentifier>()
        for v in views {
            guard v.isValid, v.layout === layout else {
                throw LayoutError(v.isValid ? .invalid : .stale, "`\(v.name)` is not a view of this layout")
            }
            guard v.kind == .view else {
                throw LayoutError(.invalid, "`\(v.name)` is \(v.kind == .root ? "the root" : "a guide"); only views can be arranged in \(title)")
            }
            guard !view.isDescendant(of: v) else {
                throw LayoutError(.invalid, "`\(v.name)` holds \(title); it cannot be arranged in it")
            }
            guard listed.insert(ObjectIdentifier(v)).inserted else {
                throw LayoutError(.invalid, "`\(v.name)` is listed twice")
            }
        }
        let others = arrangedViews.filter { !listed.contains(ObjectIdentifier($0)) }
        guard index >= 0, index <= others.count else {
            throw LayoutError(.invalid, "index \(index) is outside 0...\(others.count) for \(title)")
        }
        try layout._updateArrangement(self) { (j: inout Journal) throws(LayoutError) in
            for v in views { try layout._move(v, to: view, &j) }
            let old = arrangedViews, oldPresence = presence
            var list = others
            list.insert(contentsOf: views, at: index)
            arrangedViews = list
            // Undone to what it was: a view moved within this stack (or from another) is still arranged there.
            let oldStacks = views.map { $0.arrangingStack }
            for v in views {
                if presence[ObjectIdentifier(v)] == nil { presence[ObjectIdentifier(v)] = .shown }
                v.arrangingStack = self
            }
            j.record {
                self.arrangedViews = old; self.presence = oldPresence
                for (v, s) in zip(views, oldStacks) { v.arrangingStack = s }
            }
        }
    }

    /// Takes `v` out of the arranged views (UIKit's `removeArrangedSubview`): its stack constraints go, it stays
    /// a subview of the stack (remove it from the layout with `Layout.removeView`).
    /// - Throws: `.notFound` when `v` is not arranged in this stack; `.unsatisfiable`; `.stale`.
    public func removeArrangedView(_ v: View) throws(LayoutError) {
        let layout = try usableLayout()
        guard arrangedViews.contains(where: { $0 === v }) else {
            throw LayoutError(.notFound, "`\(v.name)` is not arranged in \(title)")
        }
        try layout._updateArrangement(self) { (j: inout Journal) throws(LayoutError) in detach(v, &j) }
    }

    /// Takes `v` out of the arranged views' lists (journaled; the caller rearranges).
    func detach(_ v: View, _ j: inout Journal) {
        guard let i = arrangedViews.firstIndex(where: { $0 === v }) else { return }
        let id = ObjectIdentifier(v)
        let old = (arrangedViews, presence[id], customSpacing[id])
        arrangedViews.remove(at: i)
        presence[id] = nil
        customSpacing[id] = nil
        v.arrangingStack = nil
        j.record {
            self.arrangedViews = old.0; self.presence[id] = old.1; self.customSpacing[id] = old.2
            v.arrangingStack = self
        }
    }

    /// Sets the axis.
    public func setAxis(_ a: LayoutAxis) throws(LayoutError) { try set(\.axis, a) }
    /// Sets the distribution.
    public func setDistribution(_ d: StackDistribution) throws(LayoutError) { try set(\.distribution, d) }
    /// Sets the alignment.
    public func setAlignment(_ a: StackAlignment) throws(LayoutError) { try set(\.alignment, a) }
    /// Sets the spacing (any finite number; negative spacing overlaps the views, as in UIKit).
    public func setSpacing(_ s: Double, animation: ArrangeAnimation? = nil) throws(LayoutError) {
        try checkSpacing(s)
        try set(\.spacing, s, animation: animation)
    }
    /// Arranges within the stack view's layout margins (true) or its edges (false).
    public func setLayoutMarginsRelativeArrangement(_ on: Bool) throws(LayoutError) {
        try set(\.isLayoutMarginsRelativeArrangement, on)
    }

    /// Sets the spacing after arranged view `v` (UIKit's `setCustomSpacing(_:after:)`), or with nil goes back
    /// to `spacing`.
    /// - Throws: `.notFound` when `v` is not arranged here, `.invalid` for a non-finite spacing.
    public func setCustomSpacing(_ s: Double?, after v: View, animation: ArrangeAnimation? = nil) throws(LayoutError) {
        let layout = try usableLayout()
        guard arrangedViews.contains(where: { $0 === v }) else {
            throw LayoutError(.notFound, "`\(v.name)` is not arranged in \(title)")
        }
        if let s { try checkSpacing(s) }
        try layout._updateArrangement(self, animation: animation) { (j: inout Journal) throws(LayoutError) in
            let id = ObjectIdentifier(v), old = customSpacing[id]
            customSpacing[id] = s
            j.record { self.customSpacing[id] = old }
        }
    }

    /// Hides (`true`) or shows an arranged view. A hidden view leaves the arrangement: zero size along the axis,
    /// no spacing. With `animation` the view's size and the gaps beside it move on the layout's clock (advance
    /// it to see them); `completion` runs when the change is done (at the next frame without animation).
    /// - Returns: the animation (without animation: nil, or a zero-length one carrying the completion).
    /// - Throws: `.notFound` when `v` is not arranged here; `.unsatisfiable` (nothing changes); `.invalid`.
    @discardableResult
    public func setHidden(_ hidden: Bool, _ v: View, animation: ArrangeAnimation? = nil,
                          completion: ((Bool) -> Void)? = nil) throws(LayoutError) -> Animation? {
        let layout = try usableLayout()
        let id = ObjectIdentifier(v)
        guard let now = presence[id] else { throw LayoutError(.notFound, "`\(v.name)` is not arranged in \(title)") }
        let goal: Presence = hidden ? .hidden : .shown
        if now == goal || (hidden && now == .hiding) || (!hidden && now == .showing) {
            // Already there, or on the way: an animated call lets the running change go on; one without
            // animation finishes it at once. The completion runs at the next frame.
            if animation != nil || now == goal {
                return try layout._updateArrangement(self, completion: completion, rearrange: false)
            }
            return try layout._updateArrangement(self, { (j: inout Journal) throws(LayoutError) in
                self.setPresence(id, goal, &j)
            }, completion: completion)
        }
        let ticket = (transition[id] ?? 0) + 1
        transition[id] = ticket
        guard let animation else {
            return try layout._updateArrangement(self, { (j: inout Journal) throws(LayoutError) in
                self.setPresence(id, goal, &j)
            }, completion: completion)
        }
        let done: (Bool) -> Void = { [weak self] finished in
            if finished, let self, self.isValid, self.transition[id] == ticket, let layout = self.layout {
                _ = try? layout._updateArrangement(self) { (j: inout Journal) throws(LayoutError) in
                    self.setPresence(id, goal, &j)
                }
            }
            completion?(finished)
        }
        try layout.layoutIfNeeded()   // where the views are now (a failing measure fails the call)
        return try layout._updateArrangement(self, animation: animation, { (j: inout Journal) throws(LayoutError) in
            if hidden {
                // The end (the view hidden) must be able to hold, or the call fails now.
                try self.trial(id, .hidden) {}
                self.setPresence(id, .hiding, &j)
                return
            }
            // Where the view and its gaps end up, from a trial with the view shown (the animated change below
            // starts from the layout as it is now).
            var size = 0.0
            var links: [ObjectIdentifier: (edge: Double, center: Double)] = [:]
            try self.trial(id, .shown) {
                size = self.distance(v, self.sizeAttribute, from: nil, nil, live: true)
                var prev: View?
                for w in self.arrangedViews where self.presence[ObjectIdentifier(w)] != .hidden {
                    if let p = prev {
                        links[ObjectIdentifier(w)] = (self.distance(w, self.leadAttribute, from: p, self.trailAttribute, live: true),
                                                      self.distance(w, self.centerAttribute, from: p, self.centerAttribute, live: true))
                    }
                    prev = w
                }
            }
            let old = (self.showSize[id], self.trialLinks)
            self.showSize[id] = size
            self.trialLinks = links
            j.record { self.showSize[id] = old.0; self.trialLinks = old.1 }
            self.setPresence(id, .showing, &j)
        }, completion: done)
    }

    /// Arranges the stack with view `id` in presence `p`, solves, runs `read`, and undoes it all; a change that
    /// cannot hold throws (undone too).
    func trial(_ id: ObjectIdentifier, _ p: Presence, read: () -> Void) throws(LayoutError) {
        guard let layout else { return }
        var trial = Journal()
        defer { layout._undo(trial) }
        setPresence(id, p, &trial)
        _ = try layout._rearrange(self, animated: false, &trial)
        layout.solver.updateVariables()
        read()
    }

    func setPresence(_ id: ObjectIdentifier, _ p: Presence, _ j: inout Journal) {
        let old = presence[id]
        presence[id] = p
        j.record { self.presence[id] = old }
    }

    func checkSpacing(_ s: Double) throws(LayoutError) {
        guard s.isFinite, abs(s) <= 1e9 else {
            throw LayoutError(.invalid, "spacing \(formatNumber(s)) must be finite, within ±1e9")
        }
    }

    func set<T>(_ key: ReferenceWritableKeyPath<StackView, T>, _ value: T,
                animation: ArrangeAnimation? = nil) throws(LayoutError) {
        let layout = try usableLayout()
        try layout._updateArrangement(self, animation: animation) { (j: inout Journal) throws(LayoutError) in
            let old = self[keyPath: key]
            self[keyPath: key] = value
            j.record { self[keyPath: key] = old }
        }
    }

    override func membersRemoved(_ doomed: Set<ObjectIdentifier>) {
        for v in arrangedViews where doomed.contains(ObjectIdentifier(v)) { v.arrangingStack = nil }
        arrangedViews.removeAll { doomed.contains(ObjectIdentifier($0)) }
        for id in doomed { presence[id] = nil; customSpacing[id] = nil; showSize[id] = nil; trialLinks[id] = nil }
    }

    // MARK: - The rules

    var horizontal: Bool { axis == .horizontal }
    var leadAttribute: LayoutAttribute { horizontal ? .leading : .top }
    var trailAttribute: LayoutAttribute { horizontal ? .trailing : .bottom }
    var sizeAttribute: LayoutAttribute { horizontal ? .width : .height }
    var centerAttribute: LayoutAttribute { horizontal ? .centerX : .centerY }

    /// The stack view's edge for `a`: the attribute itself or, with margins-relative arrangement, its margin.
    func edge(_ a: LayoutAttribute) -> LayoutAttribute {
        guard isLayoutMarginsRelativeArrangement else { return a }
        switch a {
        case .leading: return .leadingMargin
        case .trailing: return .trailingMargin
        case .top: return .topMargin
        case .bottom: return .bottomMargin
        case .centerX: return .centerXWithinMargins
        case .centerY: return .centerYWithinMargins
        default: return a
        }
    }

    /// The kinds of a stack's rule sections, in the order their rules are made.
    enum SectionKind: UInt8 { case edges, gap, spacingBound, size, cross, fit, parkedSpacers }

    /// The presence in the two bits of a section's flags.
    static func presence(_ flags: UInt16) -> Presence { Presence(rawValue: flags & 3) ?? .shown }

    /// The alignment the cross-axis rules follow: baselines are `fill` in a vertical stack (as in UIKit), and
    /// `leading`/`top` and `trailing`/`bottom` are one rule each, named for the axis.
    var effectiveAlignment: StackAlignment {
        switch alignment {
        case .firstBaseline, .lastBaseline: return horizontal ? alignment : .fill
        case .leading, .top: return horizontal ? .top : .leading
        case .trailing, .bottom: return horizontal ? .bottom : .trailing
        default: return alignment
        }
    }

    /// The stack's properties that every rule depends on, as one number (a section's `stamp`).
    var propertyStamp: UInt32 {
        let d = UInt32(StackDistribution.allCases.firstIndex(of: distribution) ?? 0)
        let a = UInt32(StackAlignment.allCases.firstIndex(of: alignment) ?? 0)
        return (horizontal ? 0 : 1) | d << 1 | a << 4 | (isLayoutMarginsRelativeArrangement ? 1 << 8 : 0)
    }

    // Flags of a gap section (beside the two presences in bits 0-3).
    static let gapTrial: UInt16 = 1 << 4         // glued where the trial put it (a showing view beside it)
    static let gapCountedAfter: UInt16 = 1 << 5  // a view that counts comes later in the chain
    static let gapSpaced: UInt16 = 1 << 6        // a spacer (equalSpacing, equalCentering); `index` is its number
    // Flags of a size section (beside the presence).
    static let sizePresentAfter: UInt16 = 1 << 4 // a view that is not hidden comes later
    static let sizeFollows: UInt16 = 1 << 5      // the size follows the reference view `b`
    static let sizeIsReference: UInt16 = 1 << 6  // the reference itself (no rule)

    /// The fill distribution's tie-break weights, one per arranged view, increasing along them (UIKit's order:
    /// the first view takes the room). A view keeps its weight while it stays in order among the others (the
    /// longest increasing run of the weights they had is kept), and views without one get weights spread
    /// between their neighbours' (before the first kept one 16 apart below it, after the last 1 apart above it);
    /// only when a gap is too narrow are all weights made again (16 apart, room for a dozen views inserted
    /// between two before the next time; 1 apart past 6,000 views), in the middle of the range, so that views
    /// put in front of the others or after them one at a time find room for thousands of calls. So inserting,
    /// removing, hiding or moving a view changes the weights of a few views, not of every view after it (by
    /// index, removing the first of 8,000 views made 8,000 rules again; with the weights made again from 16,
    /// views put in front halved the room below the first each time, and made every rule again every 14 calls:
    /// 4,000 put in front of a vertical stack one at a time 13 s).
    func fillOrder() -> [Double] {
        let views = arrangedViews
        let n = views.count
        let had = views.map { fillWeights[ObjectIdentifier($0)] }
        // The longest increasing run of the weights views had (patience sorting): those are kept.
        var tails: [Int] = [], before = [Int](repeating: -1, count: n)
        for i in 0..<n {
            guard let w = had[i] else { continue }
            var lo = 0, hi = tails.count
            while lo < hi { let m = (lo + hi) / 2; if had[tails[m]]! < w { lo = m + 1 } else { hi = m } }
            before[i] = lo > 0 ? tails[lo - 1] : -1
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var kept = [Bool](repeating: false, count: n)
        var k = tails.last ?? -1
        while k >= 0 { kept[k] = true; k = before[k] }
        // The others between their kept neighbours (after the last: 1 apart).
        var out = [Double](repeating: 0, count: n)
        var last = 0.0, i = 0, fits = true
        while i < n {
            if kept[i] { out[i] = had[i]!; last = out[i]; i += 1; continue }
            var j = i
            while j < n && !kept[j] { j += 1 }
            if i == 0 && j < n {
                // Before the first kept view: 16 apart below it while there is room above 1.
                let step = min(16, (had[j]! - 1) / Double(j + 1))
                if step < Self.minFillStep { fits = false; break }
                for t in 0..<j { out[t] = had[j]! - step * Double(j - t) }
                i = j
                continue
            }
            let step = ((j < n ? had[j]! : last + Double(j - i + 1)) - last) / Double(j - i + 1)
            if step < Self.minFillStep { fits = false; break }
            for t in i..<j { out[t] = last + step * Double(t - i + 1) }
            last = out[j - 1]
            i = j
        }
        if !fits || last > Self.maxFillWeight {
            let spread = Double(n) * 16 <= Self.maxFillWeight ? 16.0 : 1.0
            let base = max(spread, ((Self.maxFillWeight - spread * Double(n)) / 2).rounded(.down))
            for t in 0..<n { out[t] = base + spread * Double(t) }
        }
        if fillWeights.count > 2 * n + 16 {   // (views no longer arranged)
            fillWeights.removeAll(keepingCapacity: true)
            for t in 0..<n { fillWeights[ObjectIdentifier(views[t])] = out[t] }
        } else {
            for t in 0..<n where out[t] != had[t] { fillWeights[ObjectIdentifier(views[t])] = out[t] }
        }
        return out
    }

    /// The spacer number of the gap before `v` (not the first gap's): the one it holds, else the last freed,
    /// else the next.
    func spacerNumber(for v: ObjectIdentifier) -> Int {
        if let k = spacerOf[v] { return k }
        let k = freeSpacers.popLast() ?? max(spacers.count, nextSpacerNumber)
        nextSpacerNumber = max(nextSpacerNumber, k + 1)
        spacerOf[v] = k
        return k
    }

    /// Frees the spacer numbers of views no longer arranged.
    func releaseSpacers() {
        guard spacerOf.count > 0 else { return }
        let arranged = Set(arrangedViews.map(ObjectIdentifier.init))
        for (v, k) in spacerOf where !arranged.contains(v) {
            spacerOf[v] = nil
            freeSpacers.append(k)
        }
    }

    /// The closest two fill weights may be, and the largest (weights go up to 1e6).
    static let minFillStep = 1.0 / 1024
    static let maxFillWeight = 100_000.0

    /// One pass over the arranged views that works out what each section's rules depend on (see the rules at the
    /// top of this file); `rules(for:)` makes them from that alone.
    override func ruleSections() -> [RuleSection] {
        let views = arrangedViews
        let n = views.count
        let stamp = propertyStamp
        var out: [RuleSection] = []
        out.reserveCapacity(3 * n + 4)
        let allShown = presence.values.allSatisfy { $0 == .shown }
        var states = [Presence](repeating: .shown, count: n)
        if !allShown { for i in 0..<n { states[i] = presence[ObjectIdentifier(views[i])] ?? .shown } }
        func id(_ i: Int) -> ObjectIdentifier { ObjectIdentifier(views[i]) }
        func counted(_ i: Int) -> Bool { states[i] == .shown || states[i] == .showing }
        // Whether a view that counts (and, for sizes, one that is not hidden) comes after each position.
        var countedAfter = [Bool](repeating: false, count: n)
        var presentAfter = [Bool](repeating: false, count: n)
        var anyCounted = false, anyPresent = false
        for i in stride(from: n - 1, through: 0, by: -1) {
            countedAfter[i] = anyCounted; presentAfter[i] = anyPresent
            if counted(i) { anyCounted = true }
            if states[i] != .hidden { anyPresent = true }
        }
        let spaced = distribution == .equalSpacing || distribution == .equalCentering

        // Along the axis: the chain from edge to edge.
        if let first = states.firstIndex(where: { $0 != .hidden }), let last = states.lastIndex(where: { $0 != .hidden }) {
            out.append(RuleSection(kind: SectionKind.edges.rawValue, stamp: stamp, a: id(first), b: id(last),
                                   at: (Int32(first), Int32(last), -1)))
        }
        var lastCounted = -1, previous = -1
        var spacersUsed = Set<Int>()
        var spacingBound: Double?
        if spaced { releaseSpacers() }
        for i in 0..<n where states[i] != .hidden {
            defer { if counted(i) { lastCounted = i }; previous = i }
            guard previous >= 0 else { continue }
            let gap = lastCounted < 0 ? 0 : customSpacing.isEmpty ? spacing : customSpacing[id(lastCounted)] ?? spacing
            var s = RuleSection(kind: SectionKind.gap.rawValue, stamp: stamp, a: id(i), b: id(previous),
                                at: (Int32(i), Int32(previous), Int32(lastCounted)))
            s.flags = states[i].rawValue | states[previous].rawValue << 2
            // (Read by equalCentering only: appending to another stack leaves the gap before the new view as it was.)
            if countedAfter[i], distribution == .equalCentering { s.flags |= Self.gapCountedAfter }
            if states[i] == .showing || states[previous] == .showing, let t = trialLinks[id(i)] {
                s.flags |= Self.gapTrial
                s.x = t.edge; s.y = t.center
            } else if states[i] == .shown, lastCounted >= 0, spaced {
                s.flags |= Self.gapSpaced
                s.index = spacersUsed.isEmpty ? 0 : spacerNumber(for: id(i))
                spacersUsed.insert(s.index)
                s.c = id(lastCounted); s.x = gap
                // The spacers are equal: one bound on the first, at the largest spacing, says what a bound on
                // each would (each was a row as long as the stack).
                if distribution == .equalSpacing { spacingBound = max(spacingBound ?? gap, gap) }
            } else {
                s.x = states[i] == .shown && lastCounted >= 0 ? gap : 0
            }
            out.append(s)
        }
        if let spacingBound {
            out.append(RuleSection(kind: SectionKind.spacingBound.rawValue, stamp: stamp, x: spacingBound))
        }

        // Sizes along the axis.
        let fillWeight = distribution == .fill ? fillOrder() : []
        var sizeRef = -1
        previous = -1
        for i in 0..<n {
            defer { if states[i] != .hidden { previous = i } }
            var s = RuleSection(kind: SectionKind.size.rawValue, flags: states[i].rawValue, stamp: stamp, a: id(i),
                                at: (Int32(i), -1, -1))
            switch states[i] {
            case .hidden:
                if previous >= 0 { s.b = id(previous); s.at.1 = Int32(previous) }
                if presentAfter[i] { s.flags |= Self.sizePresentAfter }
            case .hiding:
                break
            case .showing:
                s.x = showSize[id(i)] ?? 0
            case .shown:
                switch distribution {
                case .fill:
                    s.x = fillWeight[i]
                case .fillEqually:   // (each follows the previous shown view: see `rules(for:)`)
                    defer { sizeRef = i }
                    if sizeRef < 0 { continue }
                    s.flags |= Self.sizeFollows; s.b = id(sizeRef); s.at.1 = Int32(sizeRef)
                case .fillProportionally:
                    let mine = views[i].intrinsicSize(for: axis) ?? 0
                    s.x = mine
                    if sizeRef >= 0, let theirs = views[sizeRef].intrinsicSize(for: axis), theirs > 0 {
                        s.flags |= Self.sizeFollows; s.b = id(sizeRef); s.at.1 = Int32(sizeRef); s.y = theirs
                    } else if mine > 0 {
                        sizeRef = i
                        continue
                    }
                default:
                    continue
                }
            }
            out.append(s)
        }

        // Across the axis.
        let align = effectiveAlignment
        for i in 0..<n {
            var s = RuleSection(kind: SectionKind.cross.rawValue, stamp: stamp, a: id(i), at: (Int32(i), 0, -1))
            if align == .firstBaseline || align == .lastBaseline { s.b = id(0) }
            out.append(s)
        }
        if align != .fill, n > 0 { out.append(RuleSection(kind: SectionKind.fit.rawValue, stamp: stamp)) }
        // Every spacer no gap uses is parked, one section each (spacer numbers held by views come before).
        for k in 0..<max(spacers.count, spaced ? nextSpacerNumber : 0) where !spacersUsed.contains(k) {
            out.append(RuleSection(kind: SectionKind.parkedSpacers.rawValue, stamp: stamp, index: k))
        }
        return out
    }

    override func rules(for s: RuleSection) -> [ArrangedRule] {
        var out: [ArrangedRule] = []
        let lead = leadAttribute, trail = trailAttribute, size = sizeAttribute, center = centerAttribute
        let views = arrangedViews
        switch SectionKind(rawValue: s.kind) {
        case .edges:
            out.append(rule(views[Int(s.at.0)], lead, .equal, view, edge(lead), "\(lead) edge"))
            out.append(rule(views[Int(s.at.1)], trail, .equal, view, edge(trail), "\(trail) edge"))
        case .gap:
            let v = views[Int(s.at.0)], prev = views[Int(s.at.1)]
            let state = Self.presence(s.flags)
            let countedAfter = s.flags & Self.gapCountedAfter != 0
            if s.flags & Self.gapTrial != 0 {
                // Next to a showing view: glued, moving to where the trial put it.
                if distribution == .equalCentering, state == .showing, countedAfter {
                    out.append(rule(v, center, .equal, prev, center, constant: s.y, "spacing",
                                    initial: distance(v, center, from: prev, center)))
                } else {
                    out.append(rule(v, lead, .equal, prev, trail, constant: s.x, "spacing",
                                    initial: distance(v, lead, from: prev, trail)))
                }
            } else if s.flags & Self.gapSpaced != 0 {
                // A spacer from the previous view to this one; the spacers are equal and at least the spacing.
                let g = spacer(s.index, in: view, prefix: view.name, after: prev, axis: axis)!
                let (a0, a1) = distribution == .equalCentering ? (center, center) : (trail, lead)
                // The size's rule first: the spacer's size is then defined before the rule at its trailing edge
                // uses it (see `Chain.rules()`).
                if s.index > 0 {
                    out.append(rule(g, size, .equal, spacers[0], size,
                                    distribution == .equalCentering ? "equal centering" : "equal spacing"))
                }
                out.append(rule(g, lead, .equal, prev, a0, "spacer"))
                out.append(rule(g, trail, .equal, v, a1, "spacer"))
                out += spacerCrossRules(g, axis: axis, parent: view)
                if distribution == .equalCentering {
                    out.append(rule(v, lead, .greaterOrEqual, views[Int(s.at.2)], trail, constant: s.x, "spacing"))
                }
            } else {
                // Glued to the previous view: the spacing (fill distributions; none before the first view that
                // counts), or a gap moving to its target while the view hides or shows. (A hiding view between
                // views that count is glued centre to centre in equalCentering, as the spacer after it starts
                // from its centre; at the end of the chain edge to edge, as the chain ends there.)
                if distribution == .equalCentering, state != .shown, countedAfter {
                    out.append(rule(v, center, .equal, prev, center, constant: s.x, "spacing",
                                    initial: distance(v, center, from: prev, center)))
                } else {
                    out.append(rule(v, lead, .equal, prev, trail, constant: s.x, "spacing",
                                    initial: distance(v, lead, from: prev, trail)))
                }
            }
        case .spacingBound:
            out.append(rule(spacers[0], size, .greaterOrEqual, nil, nil, constant: s.x, "spacing"))
        case .size:
            let v = views[Int(s.at.0)]
            switch Self.presence(s.flags) {
            case .hidden, .hiding:
                out.append(rule(v, size, .equal, nil, nil, constant: 0, "hidden view",
                                initial: distance(v, size, from: nil, nil)))
                if Self.presence(s.flags) == .hidden {
                    // Parked where it was: after the previous visible view (at its centre for equalCentering).
                    if s.at.1 >= 0 {
                        let prev = views[Int(s.at.1)]
                        if distribution == .equalCentering, s.flags & Self.sizePresentAfter != 0 {
                            out.append(rule(v, center, .equal, prev, center, "hidden view"))
                        } else {
                            out.append(rule(v, lead, .equal, prev, trail, "hidden view"))
                        }
                    } else {
                        out.append(rule(v, lead, .equal, view, edge(lead), "hidden view"))
                    }
                }
            case .showing:
                out.append(rule(v, size, .equal, nil, nil, constant: s.x, "hidden view",
                                initial: distance(v, size, from: nil, nil)))
            case .shown:
                switch distribution {
                case .fill:
                    // Ties by index, as UIKit resolves an ambiguous fill: among views whose hugging (or
                    // compression resistance) is equal, the first takes the room and the last gives it up first.
                    // At the lowest priority, so it decides nothing else. The weights (`fillOrder()`) stay as they
                    // were for views that stay in order: hiding, showing, inserting or removing one view changes
                    // no other view's (by the shown views' index, hiding the middle view of 8,000 made 4,000 rules
                    // again: 60 ms).
                    out.append(rule(v, size, .equal, nil, nil, priority: LayoutPriority.minNonZero,
                                    weight: s.x, "fill order \(formatNumber(s.x))"))
                // Each size follows the previous view's: a view inserted at the front or in the middle changes a
                // rule or two, where following the first view's changed all of them (500 views inserted at the
                // front: 212 s against 0.8 s). (The seventeenth session had gone back to the first view's: moving
                // views in a 400-view stack met a spurious conflict, rounding that the solver now repairs.)
                case .fillEqually:
                    out.append(rule(v, size, .equal, views[Int(s.at.1)], size, "fill equally"))
                case .fillProportionally:
                    if s.flags & Self.sizeFollows != 0 {
                        out.append(rule(v, size, .equal, views[Int(s.at.1)], size, multiplier: s.x / s.y,
                                        "fill proportionally"))
                    } else {
                        out.append(rule(v, size, .equal, nil, nil, "fill proportionally"))
                    }
                default:
                    break
                }
            }
        case .cross:
            let v = views[Int(s.at.0)]
            let crossLead: LayoutAttribute = horizontal ? .top : .leading
            let crossTrail: LayoutAttribute = horizontal ? .bottom : .trailing
            let crossCenter: LayoutAttribute = horizontal ? .centerY : .centerX
            let align = effectiveAlignment
            let name = "alignment \(alignment.rawValue)"
            switch align {
            case .fill:
                out.append(rule(v, crossLead, .equal, view, edge(crossLead), name))
                out.append(rule(v, crossTrail, .equal, view, edge(crossTrail), name))
            case .leading, .top:
                out.append(rule(v, crossLead, .equal, view, edge(crossLead), name))
                out.append(rule(v, crossTrail, .lessOrEqual, view, edge(crossTrail), name))
            case .trailing, .bottom:
                out.append(rule(v, crossTrail, .equal, view, edge(crossTrail), name))
                out.append(rule(v, crossLead, .greaterOrEqual, view, edge(crossLead), name))
            case .center:
                out.append(rule(v, crossCenter, .equal, view, edge(crossCenter), name))
                out.append(rule(v, crossLead, .greaterOrEqual, view, edge(crossLead), name))
                out.append(rule(v, crossTrail, .lessOrEqual, view, edge(crossTrail), name))
            case .firstBaseline, .lastBaseline:
                let r = views[0]
                if r !== v {
                    let b: LayoutAttribute = align == .firstBaseline ? .firstBaseline : .lastBaseline
                    out.append(rule(v, b, .equal, r, b, name))
                }
                out.append(rule(v, crossLead, .greaterOrEqual, view, edge(crossLead), name))
                out.append(rule(v, crossTrail, .lessOrEqual, view, edge(crossTrail), name))
                // The aligned group sits at the top when the stack is taller than it needs.
                out.append(rule(v, crossLead, .equal, view, edge(crossLead), priority: LayoutPriority.fittingSizeLevel - 1, name))
            }
        case .fit:
            out.append(rule(view, horizontal ? .height : .width, .equal, nil, nil, priority: LayoutPriority.fittingSizeLevel - 1,
                            horizontal ? "fit the tallest view" : "fit the widest view"))
        case .parkedSpacers:
            if let g = spacer(s.index, in: view, prefix: view.name) {
                out += spacerCrossRules(g, axis: .horizontal, parent: view, park: true)
            }
        case nil:
            break
        }
        return out
    }
}

extension Layout {
    /// Adds a stack: a new view named `name` under `superview` (the root by default) whose arranged views
    /// (`StackView.addArrangedView`) are laid out along `axis`.
    /// - Throws: as `addView`.
    @discardableResult
    public func addStack(_ name: String, in superview: View? = nil, axis: LayoutAxis = .horizontal) throws(LayoutError)
        -> StackView {
        let v = try addView(name, in: superview)
        let s = StackView(view: v, axis: axis, layout: self)
        arrangements.append(s)
        return s
    }

    /// The stack whose view is `view`, or nil.
    public func stack(of view: View) -> StackView? {
        arrangements.lazy.compactMap { $0 as? StackView }.first { $0.view === view }
    }
}
