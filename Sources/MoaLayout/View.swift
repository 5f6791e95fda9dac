// Moa — views and layout guides: a name, a place in the hierarchy, four solver variables and the properties
// that shape their attributes (margins, direction, intrinsic size, baseline).

import MoaSolver

/// Content priorities come in two roles per axis.
public enum ContentRole: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// `size >= intrinsic @ compressionResistance`: resists being made smaller than the content.
    case compressionResistance = 0
    /// `size <= intrinsic @ hugging`: resists being made larger than the content.
    case hugging = 1

    /// `compression resistance` or `hugging`.
    public var description: String { self == .hugging ? "hugging" : "compression resistance" }
}

/// A rectangle the layout places: a view in the hierarchy, the root, or one of the layout guides (`safeArea`,
/// `margins`, `keyboard`). Created by `Layout.addView(_:in:)`; owned by its layout.
///
/// Each view owns four solver variables — `minX`, `minY`, `width`, `height` — in the root's coordinate space,
/// so views in different branches can be related. Its attributes (`LayoutAttribute`) are linear expressions over
/// them. Property changes that shape attributes (margins, direction, baseline, intrinsic size and content
/// priorities) update the affected constraints in place; like every layout call they are all-or-nothing: if a
/// required constraint could no longer hold, the call throws `.unsatisfiable` and nothing changes.
public final class View: Hashable, CustomStringConvertible {
    /// What a `View` object stands for.
    public enum Kind: Sendable {
        /// The root view; its size is set with `Layout.setRootSize(width:height:)`.
        case root
        /// A layout guide owned by the layout (`safeArea`, `margins`, `keyboard`).
        case guide
        /// A view added with `Layout.addView(_:in:)`.
        case view
        /// A layout guide made with `Layout.addGuide(_:in:)` (UIKit's `UILayoutGuide`): an invisible
        /// rectangle for spacers and equal gaps, used in equations like a view. It has no margins, cannot hold
        /// subviews, is not in `changedViews`, and is drawn dashed in pictures. Stacks, chains and barriers
        /// make guides of their own (`isOwned`).
        case layoutGuide
    }

    /// The view's name, unique within its layout; equations refer to the view by it.
    public let name: String
    /// Root, guide or ordinary view.
    public let kind: Kind
    /// The layout the view belongs to (nil once the layout is gone).
    public var layout: Layout? { link.layout }
    let link: LayoutLink
    /// The superview (nil for the root). Guides have the root as superview.
    public internal(set) weak var superview: View? {
        didSet { let p = Int32(superview?.slot ?? -1); updateSlot { $0.superSlot = p } }
    }
    /// The depth in the hierarchy: 0 for the root, 1 for its subviews and the guides, and so on.
    public internal(set) var depth = 0 {
        didSet { let d = Int32(clamping: depth); updateSlot { $0.depth = d } }
    }
    /// The subviews, in the order they were added.
    public internal(set) var subviews: [View] = [] {
        didSet {
            let n = Int32(subviews.count)
            updateSlot { $0.subviewCount = n }
            hierarchyChanged()
        }
    }
    /// False once the view was removed from its layout; a removed view's methods throw `.stale`.
    public internal(set) var isValid = true

    /// The solver variables `minX`, `minY`, `width`, `height` (root space), for use with `Layout.solver`.
    public let variables: [Variable]
    /// Ids of the constraints that mention this view, with stale entries (`ConstraintIndex`).
    var constraintIDs: [Int] = []
    /// Entries of `constraintIDs` whose constraint is gone (or listed twice).
    var staleConstraintIDs = 0

    /// The layout margins by left and right (default 8 on every edge for views and the root, 0 for guides),
    /// used by the margin attributes. Change with `setLayoutMargins(_:)`, or by leading and trailing with
    /// `setDirectionalLayoutMargins(_:)`, which this resolves with the view's effective direction.
    public var layoutMargins: EdgeInsets {
        guard let d = directionalLayoutMargins else { return absoluteMargins }
        return d.resolved(rightToLeft: effectiveLayoutDirection == .rightToLeft)
    }
    /// The margins as last set by leading and trailing (`setDirectionalLayoutMargins(_:)`), or nil when they
    /// were set by left and right.
    public internal(set) var directionalLayoutMargins: DirectionalEdgeInsets?
    var absoluteMargins: EdgeInsets
    /// The layout direction set on this view (default `.inherit`; the root resolves `.inherit` to
    /// left-to-right). Change with `setLayoutDirection(_:)`.
    public internal(set) var layoutDirection: LayoutDirection = .inherit
    /// The intrinsic content width, or nil for none. Change with `setIntrinsicSize(width:height:)`.
    public internal(set) var intrinsicWidth: Double?
    /// The intrinsic content height, or nil for none.
    public internal(set) var intrinsicHeight: Double?
    /// The distance from the top to the (last) baseline, or nil: then `baseline` is the bottom edge, as for a
    /// UIKit view without text. Change with `setBaselineOffset(_:first:)`.
    public internal(set) var baselineOffset: Double?
    /// The distance from the top to the first baseline, or nil to use `baselineOffset`.
    public internal(set) var firstBaselineOffset: Double?

    /// The view's measured content (a measure function, or its text's), or nil.
    var content: MeasuredContent?
    /// Whether `Layout.measuredViews` lists this view (once, however often its content is set and cleared).
    var isListedAsMeasured = false
    /// Whether `Layout.measurePending` lists this view.
    var isPendingMeasure = false
    /// The view's text, or nil (`setText(_:)`).
    public internal(set) var text: TextContent?
    var hugging: [Double] = [LayoutPriority.defaultLow, LayoutPriority.defaultLow]
    var compression: [Double] = [LayoutPriority.defaultHigh, LayoutPriority.defaultHigh]

    /// The view's number in its layout, in creation order: 0 for the root, 1-3 for the guides, then the views.
    /// Never reused; `Layout.view(serial:)` finds the view by it in O(1).
    public let serial: Int

    /// The view's place in its layout's `FrameTable` (its frames), -1 once it left the layout.
    var slot = -1
    /// The layout, read without reference counting for the frames: only while `slot >= 0`, which holds only
    /// while the layout lives (its removals and its deinit take every slot back: `leaveFrames`).
    private let owner: Unmanaged<Layout>
    /// The frames as they were when the view left its layout (removed, or the layout gone).
    var leftFrame = Rect.zero
    var leftRootFrame = Rect.zero

    init(name: String, kind: Kind, layout: Layout, variables: [Variable], serial: Int) {
        self.name = name
        self.kind = kind
        link = layout.link
        owner = Unmanaged.passUnretained(layout)
        self.variables = variables
        self.serial = serial
        absoluteMargins = kind == .guide || kind == .layoutGuide ? .zero : EdgeInsets(all: 8)
    }

    /// The name, e.g. `calendar`.
    public var description: String { name }

    /// True for the root view.
    public var isRoot: Bool { kind == .root }
    /// True for the layout guides: `safeArea`, `margins`, `keyboard` and those made with `addGuide`.
    public var isGuide: Bool { kind == .guide || kind == .layoutGuide }
    /// True for a guide a stack, chain or barrier made and owns (its spacers, a barrier's line): it is
    /// removed with its owner, not by itself, and pictures leave it out unless asked for guides.
    public internal(set) var isOwned = false {
        didSet { hierarchyChanged() }
    }
    /// The stack that arranges this view, if any (one at most: it must be the stack's subview).
    weak var arrangingStack: StackView?

    // MARK: - Solved geometry

    /// The frame relative to the superview's top-left corner (UIKit's `frame`), as of the last
    /// `Layout.solve()` / `layoutIfNeeded()`. For the root it equals `frameInRoot`.
    public var frame: Rect {
        guard slot >= 0 else { return leftFrame }
        return owner._withUnsafeGuaranteedRef { $0.frames.slots[slot].rel }   // (no retain of the layout per read)
    }
    /// The frame in the root's coordinate space, as of the last solve.
    public var frameInRoot: Rect {
        guard slot >= 0 else { return leftRootFrame }
        return owner._withUnsafeGuaranteedRef { $0.frames.slots[slot].root }
    }

    /// Changes this view's record in its layout's frame table (nothing once the view left the layout).
    private func updateSlot(_ change: (inout FrameSlot) -> Void) {
        guard slot >= 0 else { return }
        let s = slot
        owner._withUnsafeGuaranteedRef { change(&$0.frames.slots[s]) }
    }

    /// Tells the layout's frame table that the hierarchy order it keeps is out of date.
    private func hierarchyChanged() {
        guard slot >= 0 else { return }
        owner._withUnsafeGuaranteedRef { $0.frames.hierarchyKnown = false }
    }

    /// Keeps the frames in the view as it leaves its layout (removed, or the layout gone).
    func leaveFrames(_ table: FrameTable) {
        guard slot >= 0 else { return }
        leftFrame = table.slots[slot].rel
        leftRootFrame = table.slots[slot].root
        slot = -1
    }

    // MARK: - Properties that shape attributes

    /// The effective layout direction: this view's own, or the nearest ancestor's that is not `.inherit`,
    /// or left-to-right.
    public var effectiveLayoutDirection: LayoutDirection {
        var v: View? = self
        while let cur = v {
            if cur.layoutDirection != .inherit { return cur.layoutDirection }
            v = cur.superview
        }
        return .leftToRight
    }

    /// The hugging priority on an axis (default 250): `size <= intrinsic @ hugging`.
    public func contentHuggingPriority(for axis: LayoutAxis) -> Double { hugging[axis.rawValue] }

    /// The compression resistance on an axis (default 750): `size >= intrinsic @ resistance`.
    public func compressionResistancePriority(for axis: LayoutAxis) -> Double { compression[axis.rawValue] }

    /// The intrinsic size on an axis, or nil.
    public func intrinsicSize(for axis: LayoutAxis) -> Double? {
        axis == .horizontal ? intrinsicWidth : intrinsicHeight
    }

    /// The attribute as a linear expression over this view's variables, using the view's own effective
    /// direction for `leading`/`trailing` (right-to-left: leading is the right edge).
    public func expression(for attribute: LayoutAttribute) -> Expression {
        physicalExpression(attribute, rightToLeft: effectiveLayoutDirection == .rightToLeft)
    }

    func physicalExpression(_ a: LayoutAttribute, rightToLeft rtl: Bool) -> Expression {
        var e = Expression([], constant: 0)
        e.terms.reserveCapacity(2)
        addPhysical(a, rightToLeft: rtl, scale: 1, to: &e)
        return e
    }

    /// Adds `scale` times the attribute's expression to `e`, merging terms of the same variable (no temporary
    /// arrays: every equation added goes through here twice).
    func addPhysical(_ a: LayoutAttribute, rightToLeft rtl: Bool, scale: Double, to e: inout Expression) {
        let x = variables[0], y = variables[1], w = variables[2], h = variables[3]
        let m = layoutMargins
        func add(_ v: Variable, _ k: Double) {
            if let i = e.terms.firstIndex(where: { $0.variable == v }) {
                e.terms[i].coefficient += scale * k
            } else {
                e.terms.append(Term(v, scale * k))
            }
        }
        func add(_ v: Variable, _ k: Double, _ v2: Variable, _ k2: Double) { add(v, k); add(v2, k2) }
        func constant(_ k: Double) { e.constant += scale * k }
        switch a {
        case .left: add(x, 1)
        case .right: add(x, 1, w, 1)
        case .centerX: add(x, 1, w, 0.5)
        case .top: add(y, 1)
        case .bottom: add(y, 1, h, 1)
        case .centerY: add(y, 1, h, 0.5)
        case .width: add(w, 1)
        case .height: add(h, 1)
        case .leading: addPhysical(rtl ? .right : .left, rightToLeft: rtl, scale: scale, to: &e)
        case .trailing: addPhysical(rtl ? .left : .right, rightToLeft: rtl, scale: scale, to: &e)
        case .baseline, .lastBaseline:
            if let b = baselineOffset { add(y, 1); constant(b) } else { add(y, 1, h, 1) }
        case .firstBaseline:
            if let b = firstBaselineOffset ?? baselineOffset { add(y, 1); constant(b) } else { add(y, 1, h, 1) }
        case .leftMargin: add(x, 1); constant(m.left)
        case .rightMargin: add(x, 1, w, 1); constant(-m.right)
        case .topMargin: add(y, 1); constant(m.top)
        case .bottomMargin: add(y, 1, h, 1); constant(-m.bottom)
        case .leadingMargin: addPhysical(rtl ? .rightMargin : .leftMargin, rightToLeft: rtl, scale: scale, to: &e)
        case .trailingMargin: addPhysical(rtl ? .leftMargin : .rightMargin, rightToLeft: rtl, scale: scale, to: &e)
        case .centerXWithinMargins: add(x, 1, w, 0.5); constant((m.left - m.right) / 2)
        case .centerYWithinMargins: add(y, 1, h, 0.5); constant((m.top - m.bottom) / 2)
        }
    }

    func checkUsable() throws(LayoutError) -> Layout {
        guard isValid, let layout else {
            throw LayoutError(.stale, "view `\(name)` was removed from its layout")
        }
        return layout
    }

    /// Sets the layout margins used by the margin attributes, updating every constraint that uses them.
    /// - Throws: `.invalid` for non-finite insets, `.unsatisfiable` if a required constraint could no longer
    ///   hold (nothing changes), `.stale` for a removed view.
    public func setLayoutMargins(_ margins: EdgeInsets) throws(LayoutError) {
        try checkNotOwned()
        try checkUsable()._setMargins(self, absolute: margins, directional: nil)
    }

    /// Sets the layout margins by leading and trailing edge (UIKit's `directionalLayoutMargins`): they follow
    /// the view's effective direction, now and when it changes (its own, or an ancestor's, or a move to a
    /// superview with another direction), updating every constraint that uses them.
    /// - Throws: `.invalid` for non-finite insets, `.unsatisfiable` if a required constraint could no longer
    ///   hold (nothing changes), `.stale` for a removed view.
    public func setDirectionalLayoutMargins(_ margins: DirectionalEdgeInsets) throws(LayoutError) {
        try checkNotOwned()
        try checkUsable()._setMargins(self, absolute: nil, directional: margins)
    }

    /// Sets the layout direction (`.inherit` follows the superview). Constraints written with leading/trailing
    /// whose first view is this view or inherits from it are mirrored or un-mirrored in place.
    /// - Throws: `.unsatisfiable` (nothing changes), `.stale`.
    public func setLayoutDirection(_ direction: LayoutDirection) throws(LayoutError) {
        try checkNotOwned()
        try checkUsable()._setDirection(self, direction)
    }

    /// A guide an arrangement made (a stack's spacer) is changed through its owner only.
    func checkNotOwned() throws(LayoutError) {
        guard !isOwned else {
            throw LayoutError(.invalid, "`\(name)` belongs to \(superview?.name ?? "its owner"); change its owner instead")
        }
    }

    /// Measured content owns the intrinsic size.
    func checkNotMeasured() throws(LayoutError) {
        guard content == nil else {
            throw LayoutError(.invalid, "`\(name)` sizes itself (measured content); take its measure function or text away first")
        }
    }

    /// Sets the intrinsic content size (nil for none on an axis). Each axis with a size gets
    /// `size >= intrinsic @ compressionResistance` and `size <= intrinsic @ hugging`; changing the size later
    /// changes those constraints' constants in place.
    /// - Throws: `.invalid` for negative or non-finite sizes, `.unsatisfiable` (nothing changes), `.stale`.
    public func setIntrinsicSize(width: Double?, height: Double?) throws(LayoutError) {
        let layout = try checkUsable()
        try checkNotOwned()
        try checkNotMeasured()
        try layout._transaction { (j: inout Journal) throws(LayoutError) in
            try layout._setIntrinsic(self, .horizontal, width, &j)
            try layout._setIntrinsic(self, .vertical, height, &j)
        }
    }

    /// Sets the intrinsic size on one axis (nil for none). See `setIntrinsicSize(width:height:)`.
    public func setIntrinsicSize(_ size: Double?, for axis: LayoutAxis) throws(LayoutError) {
        let layout = try checkUsable()
        try checkNotOwned()
        try checkNotMeasured()
        try layout._transaction { (j: inout Journal) throws(LayoutError) in
            try layout._setIntrinsic(self, axis, size, &j)
        }
    }

    /// Sets the hugging priority on an axis (1...1000; the equation form is `view.hugH == low`).
    /// - Throws: `.invalid` for a priority outside 1...1000, `.unsatisfiable`, `.stale`.
    public func setContentHuggingPriority(_ priority: Double, for axis: LayoutAxis) throws(LayoutError) {
        let layout = try checkUsable()
        _ = try layout._transaction { (j: inout Journal) throws(LayoutError) in
            try layout._setContentPriority(self, axis, .hugging, priority, &j)
        }
    }

    /// Sets the compression resistance on an axis (1...1000; the equation form is `view.resistH == low`).
    /// - Throws: `.invalid` for a priority outside 1...1000, `.unsatisfiable`, `.stale`.
    public func setCompressionResistancePriority(_ priority: Double, for axis: LayoutAxis) throws(LayoutError) {
        let layout = try checkUsable()
        _ = try layout._transaction { (j: inout Journal) throws(LayoutError) in
            try layout._setContentPriority(self, axis, .compressionResistance, priority, &j)
        }
    }

    /// Sets the baseline offsets (distance from the top): `baseline` and `lastBaseline` use `offset`,
    /// `firstBaseline` uses `first` (or `offset` when nil). With `offset` nil the baseline is the bottom edge.
    /// Constraints on the baselines are updated in place.
    /// - Throws: `.invalid` for non-finite offsets, `.unsatisfiable`, `.stale`.
    public func setBaselineOffset(_ offset: Double?, first: Double? = nil) throws(LayoutError) {
        let layout = try checkUsable()
        try checkNotOwned()
        try checkNotMeasured()
        try layout._setBaseline(self, offset, first)
    }

    /// Moves the view under a new superview. Its constraints stay as they are (they were resolved when
    /// written); frames relative to the superview and the inherited layout direction follow the new parent.
    /// - Throws: `.cycle` if `superview` is this view or one of its descendants, `.invalid` for the root, a
    ///   guide, or a view of another layout, `.unsatisfiable` if a direction change could not hold, `.stale`.
    public func setSuperview(_ superview: View) throws(LayoutError) {
        try checkUsable()._setSuperview(self, superview)
    }

    /// Views are equal when they are the same object.
    public static func == (a: View, b: View) -> Bool { a === b }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// True when `self` is `other` or one of its descendants.
    public func isDescendant(of other: View) -> Bool {
        var v: View? = self
        while let cur = v {
            if cur === other { return true }
            v = cur.superview
        }
        return false
    }
}
