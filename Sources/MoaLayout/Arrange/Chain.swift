// Moa — chains and barriers, as Android's ConstraintLayout has them, and the layout guides users make.
//
// A chain links a run of sibling views along an axis between their superview's edges:
// - `spread`: equal gaps before the first view, between the views and after the last (at least `gap` between
//   views, at least 0 at the ends);
// - `spreadInside`: the ends are pinned to the edges, the gaps between the views are equal (at least `gap`);
// - `packed`: the views are `gap` apart and the group sits between the edges at `bias` (0 at the start, 0.5
//   centred, 1 at the end);
// - weights: views with a weight share the room left along the axis in proportion to their weights (the gaps are
//   then `gap` and the ends pinned, as ConstraintLayout's "match constraints" views in a spread chain); their
//   sizes are tied to an owned guide's, the unit (`chainN#unit`).
//
// A barrier is a guide of zero thickness at the furthest of several views' edges: at least every member's edge
// (required) and pulled onto them at the lowest priority (1), so it sits on the furthest one without moving any
// member. Views attached to it follow the widest member as sizes and texts change.

/// How a chain spaces its views (ConstraintLayout's chain styles).
public enum ChainStyle: String, Sendable, CaseIterable {
    /// Equal gaps at the ends and between the views.
    case spread
    /// Ends pinned, equal gaps between the views.
    case spreadInside
    /// Views together; the group placed by the bias.
    case packed
}

/// A chain of sibling views along an axis (see the top of `Chain.swift`). Made with `Layout.addChain`.
public final class Chain: Arrangement {
    /// The views, in order along the axis.
    public private(set) var views: [View]
    /// The axis.
    public let axis: LayoutAxis
    /// The style.
    public private(set) var style: ChainStyle
    /// Where a packed chain's group sits between the edges (0...1, default 0.5).
    public internal(set) var bias: Double = 0.5
    /// The gap between neighbours (the minimum in spread styles; default 0).
    public internal(set) var gap: Double = 0
    /// The weights by view (views without one keep their own size).
    var weights: [ObjectIdentifier: Double] = [:]
    /// The guide whose size the weighted views' sizes are tied to (`unitGuide`), once made.
    var unit: View?
    /// The chain's number in its layout: 1, 2, ... in creation order, never reused.
    public let number: Int

    init(views: [View], axis: LayoutAxis, style: ChainStyle, number: Int, layout: Layout) {
        self.views = views
        self.axis = axis
        self.style = style
        self.number = number
        super.init(layout: layout)
    }

    /// `chain 'a…c'`: the first and last views.
    public override var title: String {
        guard let f = views.first, let l = views.last else { return "chain \(number) (empty)" }
        return f === l ? "chain '\(f.name)'" : "chain '\(f.name)…\(l.name)'"
    }

    /// The superview the chain spans (the first view's).
    var parent: View? { views.first?.superview }

    /// The weight of `v`, or nil.
    public func weight(of v: View) -> Double? { weights[ObjectIdentifier(v)] }

    /// Sets the style. Every rule is made again, in the order a new chain makes them: the rules a new style
    /// shares with the old one (each spacer's edges) would otherwise stay, and the sizes that make the gaps
    /// equal, added after them, walked every view they placed (a chain of 1,000 views switched to spreadInside
    /// filled 5.0M cells; 8,000 reached the cells limit).
    public func setStyle(_ s: ChainStyle) throws(LayoutError) {
        let layout = try usableLayout()
        guard s != style else { return }
        try layout._updateArrangement(self) { (j: inout Journal) throws(LayoutError) in
            let old = style
            style = s
            discardRules(layout, &j)
            j.record { self.style = old }
        }
    }

    /// Discards the constraints of every rule (latest first, see `remove`), so that the update makes them all
    /// again in the order a new chain makes them; undone with `j`.
    func discardRules(_ layout: Layout, _ j: inout Journal) {
        let kept = owned, unit = unitWeight
        for c in constraints.reversed() { layout._discard(c, &j) }
        owned = [:]
        unitWeight = nil
        forgetSections()
        j.record { self.owned = kept; self.unitWeight = unit; self.forgetSections() }
    }

    /// Sets the bias of a packed chain (0...1).
    public func setBias(_ b: Double) throws(LayoutError) {
        guard b.isFinite, b >= 0, b <= 1 else { throw LayoutError(.invalid, "bias \(formatNumber(b)) must be within 0...1") }
        try set(\.bias, b)
    }

    /// Sets the gap between neighbours (finite, at least 0).
    public func setGap(_ g: Double) throws(LayoutError) {
        guard g.isFinite, g >= 0, g <= 1e9 else { throw LayoutError(.invalid, "gap \(formatNumber(g)) must be within 0...1e9") }
        try set(\.gap, g)
    }

    /// Gives `v` a weight (positive, finite), or with nil takes it away.
    /// - Throws: `.notFound` when `v` is not in the chain, `.invalid` for a weight that is not positive.
    public func setWeight(_ w: Double?, of v: View) throws(LayoutError) {
        let layout = try usableLayout()
        guard views.contains(where: { $0 === v }) else { throw LayoutError(.notFound, "`\(v.name)` is not in \(title)") }
        if let w, !(w.isFinite && w > 0 && w <= 1e9) {
            throw LayoutError(.invalid, "weight \(formatNumber(w)) must be positive and finite")
        }
        try layout._updateArrangement(self) { (j: inout Journal) throws(LayoutError) in
            let id = ObjectIdentifier(v), old = weights[id], wasWeighted = !weights.isEmpty
            weights[id] = w
            j.record { self.weights[id] = old }
            // Ties come before the positions that use the sizes they define (`rules()`): the first weight makes
            // every rule again in that order. Later, a view that weighs more than the unit stands for has a tie
            // that is an ordinary row (each puts a cell in the rows of every view's own size): past 8 such
            // views, or with every weight far below the unit (multipliers toward the coefficient epsilon), every
            // rule is made again with a new unit (made one at a time over the positions, each tie moved them
            // all: 1,000 views 7 s). A new unit at least doubles, so raising weights remakes the chain a few
            // times at most.
            if !wasWeighted && w != nil {
                discardRules(layout, &j)
            } else if let unit = unitWeight, let largest = weights.values.max() {
                let over = weights.values.reduce(0) { $0 + ($1 > unit ? 1 : 0) }
                if over > 8 || largest * 0x1p20 < unit { discardRules(layout, &j) }
            }
        }
    }

    /// Ends the chain: its constraints and spacers go; the views stay.
    public func remove() throws(LayoutError) {
        let layout = try usableLayout()
        try layout.checkNotMeasuring()
        var j = Journal()
        j.isRecording = false   // cannot fail
        // Latest first: a chain's definitions follow from its first view, and taking the first out first had
        // every later position written out again (ending a chain of 8,000 views: 21 s).
        for c in constraints.reversed() { layout._discard(c, &j) }
        owned = [:]
        forgetSections()
        for g in spacers { layout._unmakeView(g) }
        spacers = []
        if let u = unit, u.isValid { layout._unmakeView(u) }
        unit = nil
        isValid = false
        layout.arrangements.removeAll { $0 === self }
        layout.needsLayout = true
    }

    func set<T>(_ key: ReferenceWritableKeyPath<Chain, T>, _ value: T) throws(LayoutError) {
        let layout = try usableLayout()
        try layout._updateArrangement(self) { (j: inout Journal) throws(LayoutError) in
            let old = self[keyPath: key]
            self[keyPath: key] = value
            j.record { self[keyPath: key] = old }
        }
    }

    override func membersRemoved(_ doomed: Set<ObjectIdentifier>) {
        views.removeAll { doomed.contains(ObjectIdentifier($0)) }
        for id in doomed { weights[id] = nil }
    }

    override func rules() -> [ArrangedRule] {
        guard let parent, let first = views.first, let last = views.last else { return parkedSpacerRules() }
        let h = axis == .horizontal
        let lead: LayoutAttribute = h ? .leading : .top, trail: LayoutAttribute = h ? .trailing : .bottom
        let size: LayoutAttribute = h ? .width : .height
        var out: [ArrangedRule] = []
        var used = Set<Int>()
        let prefix = "chain\(number)"
        /// Spacer `index` from `a` to `b`; with `equalTo`, its size equals that one's, a rule that comes first:
        /// the spacer's size is then a definition before the rule at its trailing edge uses it (defining it
        /// after walked every view the rule placed, at each gap: quadratic). The spacer between views k - 1 and k
        /// is number k in both spread styles (0 and n are spread's ends): it was made, and ranked, after view
        /// k - 1, so a chain switched from one style to the other keeps its definitions in order (numbered from
        /// 0 in spreadInside, each spacer sat a view further than its rank, and 1,000 views filled 5M cells).
        func spacer(_ index: Int, from a: View, _ a0: LayoutAttribute, to b: View, _ a1: LayoutAttribute,
                    equalTo ref: View? = nil) -> View {
            let g = self.spacer(index, in: parent, prefix: prefix, after: a, axis: axis)!
            used.insert(index)
            if let ref { out.append(rule(g, size, .equal, ref, size, style == .spread ? "spread" : "spread inside")) }
            out.append(rule(g, lead, .equal, a, a0, "spacer"))
            out.append(rule(g, trail, .equal, b, a1, "spacer"))
            out += spacerCrossRules(g, axis: axis, parent: parent)
            return g
        }
        let weighted = views.filter { weights[ObjectIdentifier($0)] != nil }
        func gaps() {
            for k in 1 ..< max(1, views.count) {
                out.append(rule(views[k], lead, .equal, views[k - 1], trail, constant: gap, "gap"))
            }
        }
        if !weighted.isEmpty {
            // Each weighted size is tied to the unit guide's: `v.size == unit.size * weight / unitWeight`. The
            // unit ranks below every size it ties and multipliers are at most 1 (`unitWeight`), so each tie
            // defines its view's size (`SolverCore.definitionSubject`); tied to one of the views, a tie whose view
            // ranked below it or weighed more went in as an ordinary row, and every row of the views' own sizes
            // came to hold all of those ties (1,000 views weighing 1, 2, 3 in turn: 2.5M cells).
            let u = unitGuide(parent, weighted, size: size), unitWeight = currentUnitWeight()
            out += spacerCrossRules(u, axis: axis, parent: parent)
            out.append(rule(u, lead, .equal, parent, lead, "unit"))
            for v in weighted {
                out.append(rule(v, size, .equal, u, size, multiplier: weights[ObjectIdentifier(v)]! / unitWeight, "weights"))
            }
            // The room left goes to the weighted views: where the others' own sizes leave a choice (equal
            // priorities), they hug (size 0 at the lowest priority, below every preference of their own).
            for v in views where weights[ObjectIdentifier(v)] == nil {
                out.append(rule(v, size, .equal, nil, nil, priority: LayoutPriority.minNonZero, "weights"))
            }
            // The sizes before the positions that use them: a tie that takes a size over from the view's own
            // (its intrinsic size) then finds nothing downstream of it (after the gaps, each took the size of
            // every view after it along: quadratic).
            out.append(rule(first, lead, .equal, parent, lead, "start"))
            gaps()
            // The end last: before it the sizes tied together by their weights still agree with the views' own
            // sizes, so each tie goes in without moving anything; made first, every tie moved every size the
            // end had stretched (1,000 weighted views of their own size 10 in 100,000: 6 s, 2,000: 49 s).
            out.append(rule(last, trail, .equal, parent, trail, "end"))
        } else {
            if style == .packed { gaps() }
            switch style {
            case .packed:
                let s0 = spacer(0, from: parent, lead, to: first, lead)
                let s1 = spacer(1, from: last, trail, to: parent, trail)
                out.append(rule(s0, size, .greaterOrEqual, nil, nil, "packed"))
                out.append(rule(s1, size, .greaterOrEqual, nil, nil, "packed"))
                // s0 * (1 - bias) == s1 * bias
                if bias >= 1 {
                    out.append(rule(s1, size, .equal, nil, nil, "bias"))
                } else {
                    out.append(rule(s0, size, .equal, s1, size, multiplier: bias / (1 - bias), "bias"))
                }
            case .spread, .spreadInside:
                // The gaps are equal, so one bound on the first says what a bound on each would (each was a row
                // as long as the chain: the first gap's value depends on every view's size).
                var ref: View?
                if style == .spread {
                    ref = spacer(0, from: parent, lead, to: first, lead)
                } else {
                    out.append(rule(first, lead, .equal, parent, lead, "start"))
                    out.append(rule(last, trail, .equal, parent, trail, "end"))
                }
                for k in 1 ..< max(1, views.count) {
                    let g = spacer(k, from: views[k - 1], trail, to: views[k], lead, equalTo: ref)
                    ref = ref ?? g
                }
                if style == .spread { _ = spacer(views.count, from: last, trail, to: parent, trail, equalTo: ref) }
                if let ref {
                    let inner = views.count > 1
                    out.append(rule(ref, size, .greaterOrEqual, nil, nil,
                                    constant: inner ? (style == .spread ? max(0, gap) : gap) : 0,
                                    inner ? "gap" : "spread"))
                }
            }
        }
        out += parkedSpacerRules(except: used)
        if weighted.isEmpty, let u = unit, u.isValid {
            out += spacerCrossRules(u, axis: .horizontal, parent: u.superview!, park: true)
        }
        return out
    }

    /// The weight the unit guide's size stands for, chosen when the ties are made afresh (`discardRules` forgets
    /// it): the smallest power of two at least the largest weight, so each tie's multiplier is exact and at most
    /// 1, and stays so while weights change below it.
    var unitWeight: Double?

    /// `unitWeight`, chosen now if it is not yet.
    func currentUnitWeight() -> Double {
        if let u = unitWeight { return u }
        let largest = weights.values.max() ?? 1
        let u = largest.significand == 1 ? largest : Double(sign: .plus, exponent: largest.exponent + 1, significand: 1)
        unitWeight = u
        return u
    }

    /// The chain's unit guide (`chainN#unit`): made on first use, like a spacer (owned, undone with a failed
    /// update), and ranked just below the lowest-ranked size among `weighted` (`Solver.placeRank(of:justBelow:)`).
    func unitGuide(_ parent: View, _ weighted: [View], size: LayoutAttribute) -> View {
        if let u = unit, u.isValid { return u }
        let layout = self.layout!
        let index = size == .width ? 2 : 3
        var name = "chain\(number)#unit", k = 1
        while layout.byName[name] != nil { k += 1; name = "chain\(number)#unit_\(k)" }
        let u = layout.makeView(name, .layoutGuide, superview: parent)
        u.isOwned = true
        var lowest = weighted[0].variables[index]
        for v in weighted.dropFirst() where (try? layout.solver.ranks(lowest, above: v.variables[index])) == true {
            lowest = v.variables[index]
        }
        _ = try? layout.solver.placeRank(of: u.variables[index], justBelow: lowest)
        unit = u
        newSpacers.append(u)
        return u
    }
}

/// The side of its members a barrier follows.
public enum BarrierSide: String, Sendable, CaseIterable {
    case left, right, top, bottom, leading, trailing

    var attribute: LayoutAttribute {
        switch self {
        case .left: return .left
        case .right: return .right
        case .top: return .top
        case .bottom: return .bottom
        case .leading: return .leading
        case .trailing: return .trailing
        }
    }

    /// Right, bottom and trailing barriers are at or past their members' edges; the others at or before them.
    var isEnd: Bool { self == .right || self == .bottom || self == .trailing }
}

/// A barrier (ConstraintLayout's): a guide at the furthest of its members' edges on one side (see the top of
/// `Chain.swift`). Its `guide` is used in equations by name (`field.leading == labels.trailing + 8`).
public final class Barrier: Arrangement {
    /// The barrier's guide: zero thickness, spanning its superview across the side's axis.
    public let guide: View
    /// The side.
    public let side: BarrierSide
    /// The members.
    public private(set) var views: [View]
    /// The distance from the furthest member's edge (default 0).
    public private(set) var margin: Double

    init(guide: View, side: BarrierSide, views: [View], margin: Double, layout: Layout) {
        self.guide = guide
        self.side = side
        self.views = views
        self.margin = margin
        super.init(layout: layout)
    }

    /// `barrier 'labelsEnd'`.
    public override var title: String { "barrier '\(guide.name)'" }
    override var hostView: View? { guide }

    /// Replaces the members.
    /// - Throws: `.invalid` for a view of another layout or a member repeated; `.unsatisfiable`; `.stale`.
    public func setViews(_ vs: [View]) throws(LayoutError) {
        let layout = try usableLayout()
        try layout._checkMembers(vs, of: title, allowGuides: true)
        guard !vs.contains(where: { $0 === guide }) else {
            throw LayoutError(.invalid, "\(title) cannot be one of its own members")
        }
        try layout._updateArrangement(self) { (j: inout Journal) throws(LayoutError) in
            let old = views
            views = vs
            j.record { self.views = old }
        }
    }

    /// Sets the margin.
    public func setMargin(_ m: Double) throws(LayoutError) {
        let layout = try usableLayout()
        guard m.isFinite, abs(m) <= 1e9 else { throw LayoutError(.invalid, "margin \(formatNumber(m)) must be finite, within ±1e9") }
        try layout._updateArrangement(self) { (j: inout Journal) throws(LayoutError) in
            let old = margin
            margin = m
            j.record { self.margin = old }
        }
    }

    override func membersRemoved(_ doomed: Set<ObjectIdentifier>) {
        views.removeAll { doomed.contains(ObjectIdentifier($0)) }
    }

    override func rules() -> [ArrangedRule] {
        let a = side.attribute
        let vertical = a.axis == .horizontal   // a vertical line at an x position
        let parent = guide.superview!
        var out: [ArrangedRule] = []
        // The line: zero thickness, spanning the parent the other way.
        if vertical {
            out.append(rule(guide, .width, .equal, nil, nil, "line"))
            out.append(rule(guide, .top, .equal, parent, .top, "line"))
            out.append(rule(guide, .height, .equal, parent, .height, "line"))
        } else {
            out.append(rule(guide, .height, .equal, nil, nil, "line"))
            out.append(rule(guide, .left, .equal, parent, .left, "line"))
            out.append(rule(guide, .width, .equal, parent, .width, "line"))
        }
        let k = side.isEnd ? margin : -margin
        for v in views {
            out.append(rule(guide, a, side.isEnd ? .greaterOrEqual : .lessOrEqual, v, a, constant: k, "beyond every member"))
            out.append(rule(guide, a, .equal, v, a, constant: k, priority: LayoutPriority.minNonZero, "at the furthest member"))
        }
        if views.isEmpty {
            out.append(rule(guide, a, .equal, parent, a, "no members"))
        }
        return out
    }
}

extension Layout {
    /// Adds a layout guide (UIKit's `UILayoutGuide`) named `name` in `superview` (the root by default): a
    /// rectangle with the attributes of a view, for equations only (spacers, equal gaps, a column to align to).
    /// Nothing places it until equations do; `ambiguities()` reports it until they do.
    /// - Throws: as `addView`.
    @discardableResult
    public func addGuide(_ name: String, in superview: View? = nil) throws(LayoutError) -> View {
        try checkNotMeasuring()
        let parent = superview ?? root
        try checkName(name)
        guard byName[name] == nil else { throw LayoutError(.duplicateName, "a view named `\(name)` already exists") }
        try checkParent(parent)
        needsLayout = true
        return makeView(name, .layoutGuide, superview: parent)
    }

    /// Adds a chain of `views` (siblings, two at least... one is allowed) along `axis` with `style`.
    /// - Throws: `.invalid` for no views, views of another layout, repeated views, views with different
    ///   superviews, a view in another chain on the same axis, or the root; `.unsatisfiable` (nothing changes).
    @discardableResult
    public func addChain(_ views: [View], axis: LayoutAxis, style: ChainStyle = .spread, gap: Double = 0,
                         bias: Double = 0.5, weights: [Double?] = []) throws(LayoutError) -> Chain {
        try checkNotMeasuring()
        guard !views.isEmpty else { throw LayoutError(.invalid, "a chain needs at least one view") }
        try _checkMembers(views, of: "a chain", allowGuides: false)
        let parent = views[0].superview
        guard let parent, views.allSatisfy({ $0.superview === parent }) else {
            throw LayoutError(.invalid, "the views of a chain must share one superview")
        }
        for case let c as Chain in arrangements where c.axis == axis {
            if let v = views.first(where: { v in c.views.contains { $0 === v } }) {
                throw LayoutError(.invalid, "`\(v.name)` is already in \(c.title) on the \(axis) axis")
            }
        }
        guard gap.isFinite, gap >= 0, gap <= 1e9 else { throw LayoutError(.invalid, "gap \(formatNumber(gap)) must be within 0...1e9") }
        guard bias.isFinite, bias >= 0, bias <= 1 else { throw LayoutError(.invalid, "bias \(formatNumber(bias)) must be within 0...1") }
        guard weights.count <= views.count else { throw LayoutError(.invalid, "\(weights.count) weights for \(views.count) views") }
        for w in weights { if let w, !(w.isFinite && w > 0 && w <= 1e9) { throw LayoutError(.invalid, "weight \(formatNumber(w)) must be positive and finite") } }
        _ = parent
        nextChainNumber += 1
        let c = Chain(views: views, axis: axis, style: style, number: nextChainNumber, layout: self)
        c.gap = gap
        c.bias = bias
        for (v, w) in zip(views, weights) { c.weights[ObjectIdentifier(v)] = w }
        arrangements.append(c)
        do throws(LayoutError) {
            try _updateArrangement(c)
        } catch {
            arrangements.removeAll { $0 === c }
            for g in c.spacers { _unmakeView(g) }
            if let u = c.unit, u.isValid { _unmakeView(u) }
            throw error
        }
        return c
    }

    /// Adds a barrier: a guide named `name` in `superview` (default: the first member's superview) at the
    /// furthest of `views`' `side` edges, plus `margin` (see `Barrier`).
    /// - Throws: as `addGuide`, and `.invalid` for members of another layout or repeated ones.
    @discardableResult
    public func addBarrier(_ name: String, side: BarrierSide, views: [View], margin: Double = 0,
                           in superview: View? = nil) throws(LayoutError) -> Barrier {
        try _checkMembers(views, of: "a barrier", allowGuides: true)
        guard margin.isFinite, abs(margin) <= 1e9 else { throw LayoutError(.invalid, "margin \(formatNumber(margin)) must be finite, within ±1e9") }
        let g = try addGuide(name, in: superview ?? views.first?.superview ?? root)
        let b = Barrier(guide: g, side: side, views: views, margin: margin, layout: self)
        arrangements.append(b)
        do throws(LayoutError) {
            try _updateArrangement(b)
        } catch {
            arrangements.removeAll { $0 === b }
            _unmakeView(g)
            throw error
        }
        return b
    }

    /// The barrier whose guide is `guide`, or nil.
    public func barrier(of guide: View) -> Barrier? {
        arrangements.lazy.compactMap { $0 as? Barrier }.first { $0.guide === guide }
    }

    /// The live chain with this `number` (1, 2, ... in creation order), or nil.
    public func chain(number: Int) -> Chain? {
        arrangements.lazy.compactMap { $0 as? Chain }.first { $0.number == number }
    }

    /// The chains `view` is in (one per axis at most).
    public func chains(of view: View) -> [Chain] {
        arrangements.compactMap { $0 as? Chain }.filter { $0.views.contains { $0 === view } }
    }

    func _checkMembers(_ views: [View], of what: String, allowGuides: Bool) throws(LayoutError) {
        var seen = Set<ObjectIdentifier>()
        for v in views {
            guard v.isValid, v.layout === self else {
                throw LayoutError(v.isValid ? .invalid : .stale, "`\(v.name)` is not a view of this layout")
            }
            guard v.kind == .view || (allowGuides && v.kind == .layoutGuide) else {
                throw LayoutError(.invalid, "`\(v.name)` cannot be in \(what)")
            }
            guard seen.insert(ObjectIdentifier(v)).inserted else {
                throw LayoutError(.invalid, "`\(v.name)` is named twice in \(what)")
            }
        }
    }
}
