// Moa — a layout: a solver, a root view of a size the caller sets, layout guides, views and their
// constraints, and solved frames.

import MoaSolver

/// A constraint layout: the job Auto Layout does inside UIKit.
///
/// A layout owns a `Solver`, a root view whose size the caller sets (`setRootSize(width:height:)`, changed in
/// place on rotation or window resize), three layout guides and the views added to it. Constraints are written
/// as equations (`eq`, `eqs`, see below) or come from views' intrinsic sizes. After `solve()` (or
/// `layoutIfNeeded()`) every view has a frame relative to its superview and one in root space.
///
/// **Equations.** `view1.attr1 REL view2.attr2 * m + c @ priority   # comment`, one per line:
/// - REL is `==`, `<=` or `>=`; `* m` (or `/ m`) defaults to 1, `+ c` (or `- c`) to 0, the priority to 1000.
/// - Without `view2.attr2` the right side is the superview's same attribute — `table.left == 7` is
///   `table.left == view.left + 7` — except for `width` and `height`, where a lone number is absolute.
///   `view2` without `.attr2` means view2's same attribute. `view` and `superview` name the superview of view1.
/// - Priorities: a number in 1...1000 or a name (`required`/`max` 1000, `high` 750, `med` 500, `low` 250,
///   `fit` 50, and `minNonZero`, `belowDefaultLow`, `defaultLow`, `aboveDefaultLow`, `belowDefaultHigh`,
///   `defaultHigh`, `aboveDefaultHigh`, `maxNonRequired`), with `+`/`-` arithmetic (`defaultHigh - 1`).
/// - Shorthands: `v.size == 30x40` (width and height; also `== 30` or `== other.size * m + c`),
///   `v.pin == 8` (top/left `== superview + 8`, bottom/right `== superview - 8`; `v.pin == other + 8` pins to
///   another view; with `>=` the insets are at least 8), `v.hugH == low`, `hugV`, `resistH`, `resistV`
///   (and their aliases `compressH`, `compressV`) set content priorities.
/// - `#` starts a comment; a trailing `?` sends how the line was interpreted to `debugOutput`. Anything else
///   left on a line is an error.
/// - Re-issuing an equation with the same left side, relation, right side (view, attribute, multiplier) and
///   priority updates the constant of the existing constraint and returns the same handle (RMExtensions' rule).
///   `xeq` removes the constraint an equation names (its constant is ignored).
///
/// **Directions.** Constraints written with `leading`/`trailing` are mirrored when their first view's effective
/// direction is right-to-left: every horizontal position `p` in them is read as `root.left + root.right - p`
/// (leading is the right edge, and `+ 8` points left), so the same equations give the mirrored layout.
/// Relating leading/trailing to left/right in one constraint is an error, as in Auto Layout.
///
/// **Guides.** `safeArea` is the root inset by `safeAreaInsets`; `margins` is the root inset by the root's
/// layout margins; `keyboard` spans the root's width at its bottom with height `keyboardHeight` (0: its top is
/// the root's bottom). All three are items like views: `table.bottom == keyboard.top`.
///
/// **Errors leave no trace.** Every throwing call either succeeds or leaves the layout as it was: the same
/// constraints with the same constants, priorities and active states, the same view properties, the same
/// solved values for every variable the constraints fix. `eqs` is all-or-nothing over all its lines. (A
/// failure after some of a call's constraints went in takes them out again; in an ambiguous layout a
/// variable that no constraint fixes may then settle at another, equally valid value.)
///
/// **Changes that only hold together** — a direction flip that mirrors a view's leading and trailing, a root
/// resize when a width is tied to both root sides, re-issued constants in one `eqs` — are made as one:
/// in place when possible, else as remove-all then add-all after the final state was checked in a scratch
/// solver. New constraints of an `eqs` call go in after its re-issued constants, in line order.
///
/// A layout is used by one thread at a time. The C functions are `moa_layout_*`, `moa_view_*` and
/// `moa_lcons_*` in `moa.h`.
public final class Layout {
    /// The solver holding the layout's variables and constraints. Read it (values, `dump()`), but change
    /// constraints through the layout, or the layout's bookkeeping will be wrong; `solve()` takes its
    /// `takeChangedVariables()`, so taking them elsewhere leaves frames out of date.
    public let solver: Solver
    /// What the layout's views, constraints, arrangements and animator reach it through (see `LayoutLink`).
    let link = LayoutLink()
    /// The root view (named `root`): origin (0, 0), size set by `setRootSize(width:height:)`.
    public var root: View { _root }
    /// The safe-area guide (named `safeArea`): the root inset by `safeAreaInsets`.
    public var safeArea: View { _safeArea }
    /// The margins guide (named `margins`): the root inset by the root's layout margins.
    public var margins: View { _margins }
    /// The keyboard guide (named `keyboard`): full width at the root's bottom, `keyboardHeight` tall.
    public var keyboard: View { _keyboard }
    var _root: View!
    var _safeArea: View!
    var _margins: View!
    var _keyboard: View!

    /// The root's width as last set.
    public private(set) var rootWidth: Double = 0
    /// The root's height as last set.
    public private(set) var rootHeight: Double = 0
    /// The orientation the root size gives: landscape when wider than tall, otherwise portrait. A rotation is a
    /// root-size change (`setRootSize`, `animateRootSize`); pan drivers can be gated on it.
    public var orientation: Orientation { rootWidth > rootHeight ? .landscape : .portrait }
    /// The safe-area insets as last set (default zero).
    public private(set) var safeAreaInsets = EdgeInsets.zero
    /// The keyboard height as last set (default 0).
    public private(set) var keyboardHeight: Double = 0

    /// Where a trailing `?` sends its report. Standard error by default.
    public var debugOutput: (String) -> Void = { writeToStandardError($0) }

    /// The views whose frame changed in the last `solve()`, in creation order (root first; guides are not
    /// listed; views removed since are left out). A view counts as changed when its frame in root space or
    /// relative to its superview moved.
    public var changedViews: [View] { changed.compactMap { view(serial: $0.serial) } }
    /// The serials of `changedViews`. Kept as numbers, not references: after a frame in which 100,000 views
    /// moved, the next frame (one view moving) released 100,000 references first, 3 ms.
    public var changedSerials: [Int] { changed.map(\.serial) }
    /// The views of `changedViews` by serial and frame slot, in creation order (the C layer writes their frames
    /// from `frames` without touching the view objects).
    package private(set) var changed: [ChangedView] = []
    /// While set, a solve adds to `changed` instead of replacing it: an animation frame's completions may change
    /// and solve the layout, and the views they move belong to that frame (`Animator.step`).
    package var keepsChanged = false
    /// Frames computed (solves that rebuilt `changed`).
    package private(set) var solveCount = 0
    /// Empties `changed` (a frame that made no solve, before its completions solve).
    package func forgetChanged() { changed.removeAll(keepingCapacity: true) }

    /// True when something changed since the last solve, so `layoutIfNeeded()` will solve.
    public internal(set) var needsLayout = true

    /// The layout's clock and animations, made on first use of `animator` (Motion/Animator.swift).
    var _animator: Animator?

    // Views
    var allViews = CreationOrder<View>()
    /// The live views by `serial`.
    var viewBySerial = SerialTable<View>()
    /// The view that owns each solver variable, by `Variable.index`.
    var viewByVariable: [View?] = []
    /// The frames of the live views, by `View.slot`.
    package internal(set) var frames = FrameTable()
    /// The slot of the view that owns each solver variable, by `Variable.index` (-1: none): `solve()` maps
    /// changed variables to the frames to recompute.
    var slotByVariable: [Int32] = []
    /// Slots whose frame the next `solve()` recomputes even if none of their variables changes (see `refreshFrame`).
    var framesToRefresh: [Int32] = []
    /// `framesToRefresh.count` after its last compaction (`compactFramesToRefresh`).
    var framesToRefreshKept = 0
    var byName = NameTable<View>()
    var nextViewSerial = 0

    // Constraints
    var userConstraints = CreationOrder<LayoutConstraint>()
    /// The layout constraint installed as each solver constraint, by `Constraint.index` (see `owner(of:)`).
    var byHandleIndex: [LayoutConstraint?] = []
    var byKey: [ConstraintKey: LayoutConstraint] = [:]
    var byID = ConstraintIndex()
    var nextConstraintID = 1
    var rootSizeConstraints: [LayoutConstraint] = []    // left, top, width, height
    var safeAreaConstraints: [LayoutConstraint] = []    // top, left, bottom, right
    var keyboardHeightConstraint: LayoutConstraint!
    /// Each view's four intrinsic-size constraints, made on demand: index `axis * 2 + role`. Kept here, not in
    /// the view, so that views and constraints don't hold each other.
    var intrinsicByView: [ObjectIdentifier: [LayoutConstraint?]] = [:]
    /// Views with a measure function (or text), in the order they got it; removed views and views whose
    /// function was taken away are dropped at the next solve.
    var measuredViews: [View] = []
    /// Set when measured content may need a look beyond the views whose width changed (a new text measurer, a
    /// failed settle): the next solve looks at every measured view (`_settleMeasuredContent`).
    var measureAll = true
    /// Views whose content was set or invalidated since the last settle, which looks at them besides those
    /// whose width changed (each listed once: `View.isPendingMeasure`). Invalidating one of 8,000 measured
    /// views looked at all of them (0.43 ms a solve).
    var measurePending: [View] = []
    /// Measured views removed or cleared of content since `measuredViews` was last compacted (it is when they
    /// are half of it).
    var measuredViewsGone = 0
    /// The root width the last settle saw (adaptive text follows it).
    var measuredAtRootWidth: Double?
    /// Entries of the lists that keep views and equations between solves (not API: for tests).
    public var _pendingListSizes: (framesToRefresh: Int, equations: Int) {
        (framesToRefresh.count, userConstraints.count)
    }
    /// Views `measuredViews` lists (not API: for tests).
    public var _measuredViewCount: Int { measuredViews.count }
    /// Stacks, chains and barriers: they keep their constraints current (`Arrangement`).
    var arrangements: [Arrangement] = []
    var nextChainNumber = 0
    /// The last `recentConflictLimit` unsatisfiable errors the layout reported, oldest first (the inspector's
    /// conflicts panel). A diagnostic record only: the failed calls themselves changed nothing.
    public internal(set) var recentConflicts: [LayoutError] = []
    /// Equation keys two live equations have shared (a priority change re-keyed one onto the other's key): only
    /// for these does removing the indexed one look for a twin to take its `byKey` entry (`_twin`).
    var sharedKeys = Set<ConstraintKey>()
    /// How many unsatisfiable errors `recentConflicts` keeps.
    public static let recentConflictLimit = 16
    /// The time limit of one call (`LayoutLimits.maxSecondsPerCall`); the rows and cells limits live in the
    /// solver (`limits` joins them).
    var maxSecondsPerCall = 0.0
    /// Called every `progressInterval` constraints a call adds (`setProgressHandler`).
    var progressHandler: ((Int) -> Bool)?
    var progressInterval = 1000
    /// The calls in progress (`_transaction` nests), the constraints the outermost has added, when it began,
    /// and whether it is undoing its steps (no limit applies to undoing).
    var callDepth = 0
    var callSteps = 0
    var callStart = 0.0
    var isRollingBack = false
    /// True while the progress handler runs: the layout may not be changed or solved.
    public internal(set) var isReportingProgress = false
    /// True while the progress handler runs from inside a solver operation (between two pivots): the solver
    /// is half way through a change and may not be read either (see `setProgressHandler`).
    public internal(set) var isReportingProgressInsideSolver = false
    /// True while a measure function runs: the layout may be read, not changed.
    public internal(set) var isMeasuring = false
    /// Measure calls and cache hits (see `MeasureStatistics`).
    public internal(set) var measureStatistics = MeasureStatistics()
    /// What measures text content (`View.setText`); a `SimpleTextMeasurer` until `setTextMeasurer`.
    public internal(set) var textMeasurer: TextMeasurer = SimpleTextMeasurer()

    /// Names that equations reserve: they can't be given to views.
    public static let reservedNames: [String] = ["view", "superview", "root", "safeArea", "margins", "keyboard"]

    /// The views a host still holds keep their last frames.
    deinit {
        link.layout = nil   // first: from here on the layout is gone for whatever reaches it through the link
        for v in allViews.all { v.leaveFrames(frames) }
        // The views go one by one, not down the hierarchy: a view's `subviews` holds its children, so the last
        // release of the root would free the tree recursively, a few stack frames per level (a 40,000-deep
        // hierarchy overflowed the stack; a thread's smaller stack much sooner). A view a caller still holds
        // keeps its frames, not its subviews.
        for v in allViews.all { v.subviews = [] }
    }

    /// Creates a layout with a root of size 0 × 0 (set it with `setRootSize(width:height:)`).
    public init() {
        solver = Solver()
        link.layout = self
        _root = makeView("root", .root, superview: nil)
        _safeArea = makeView("safeArea", .guide, superview: _root)
        _margins = makeView("margins", .guide, superview: _root)
        _keyboard = makeView("keyboard", .guide, superview: _root)
        let root = self.root, safeArea = self.safeArea, margins = self.margins, keyboard = self.keyboard
        var j = Journal()
        func spec(_ v: View, _ a: LayoutAttribute, _ second: View?, _ a2: LayoutAttribute?, _ c: Double,
                  _ origin: ConstraintOrigin) -> LayoutConstraint {
            let lc = makeConstraint(Spec(first: v, firstAttribute: a, relation: .equal, second: second,
                                         secondAttribute: a2, multiplier: 1, divisor: nil, constant: c,
                                         priority: LayoutPriority.required), origin: origin)
            byID[lc.id] = lc
            try? _install(lc, &j)  // cannot fail: every internal constraint places a fresh variable
            return lc
        }
        rootSizeConstraints = [spec(root, .left, nil, nil, 0, .rootSize), spec(root, .top, nil, nil, 0, .rootSize),
                               spec(root, .width, nil, nil, 0, .rootSize), spec(root, .height, nil, nil, 0, .rootSize)]
        safeAreaConstraints = [spec(safeArea, .top, root, .top, 0, .guide),
                               spec(safeArea, .left, root, .left, 0, .guide),
                               spec(safeArea, .bottom, root, .bottom, 0, .guide),
                               spec(safeArea, .right, root, .right, 0, .guide)]
        for (a, b) in [(LayoutAttribute.top, LayoutAttribute.topMargin), (.left, .leftMargin),
                       (.bottom, .bottomMargin), (.right, .rightMargin)] {
            _ = spec(margins, a, root, b, 0, .guide)
        }
        _ = spec(keyboard, .left, root, .left, 0, .guide)
        _ = spec(keyboard, .right, root, .right, 0, .guide)
        _ = spec(keyboard, .bottom, root, .bottom, 0, .guide)
        keyboardHeightConstraint = spec(keyboard, .height, nil, nil, 0, .guide)
        // The solver names layout constraints by their current equations, only when a dump asks.
        solver.tagProvider = { [link] h in link.layout?.owner(of: h)?.description ?? "" }
    }

    /// Creates a layout with a root of the given size.
    /// - Throws: `.invalid` for a negative or non-finite size.
    public convenience init(width: Double, height: Double) throws(LayoutError) {
        self.init()
        try setRootSize(width: width, height: height)
    }

    func makeView(_ name: String, _ kind: View.Kind, superview: View?) -> View {
        // Sizes first: a constraint defines its highest-ranked (latest made) variable, and positions placed by
        // sizes (`b.left == a.right + 8`, `b.centerY == a.centerY`, where the size's coefficient is 0.5) should
        // be the ones defined (`SolverCore.definitionSubject`).
        let width = solver.addVariable(name: name + ".width"), height = solver.addVariable(name: name + ".height")
        let vars = [solver.addVariable(name: name + ".minX"), solver.addVariable(name: name + ".minY"), width, height]
        let v = View(name: name, kind: kind, layout: self, variables: vars, serial: nextViewSerial)
        nextViewSerial += 1
        v.superview = superview
        v.depth = superview.map { $0.depth + 1 } ?? 0
        // (after the two above: the record is made with them, their observers have no slot to update yet)
        v.slot = frames.allocate(serial: v.serial, guide: v.isGuide, superSlot: superview?.slot ?? -1,
                                 depth: v.depth, variables: vars)
        superview?.subviews.append(v)
        allViews.append(v)
        viewBySerial.insert(v, at: v.serial)
        byName[name] = v
        for x in vars {
            while viewByVariable.count <= x.index { viewByVariable.append(nil) }
            viewByVariable[x.index] = v
            while slotByVariable.count <= x.index { slotByVariable.append(-1) }
            slotByVariable[x.index] = Int32(v.slot)
        }
        refreshFrame(v)
        return v
    }

    /// Takes a view's frames out of the table as it leaves the layout (the view keeps them).
    func releaseFrames(_ v: View) {
        let slot = v.slot
        guard slot >= 0 else { return }
        for x in v.variables where x.index < slotByVariable.count { slotByVariable[x.index] = -1 }
        v.leaveFrames(frames)
        frames.release(slot)
    }

    func makeConstraint(_ s: Spec, origin: ConstraintOrigin) -> LayoutConstraint {
        let c = LayoutConstraint(id: nextConstraintID, layout: self, first: s.first, firstAttribute: s.firstAttribute,
                                 relation: s.relation, second: s.second, secondAttribute: s.secondAttribute,
                                 multiplier: s.multiplier, divisor: s.divisor, constant: s.constant,
                                 priority: s.priority, origin: origin)
        c.weight = s.weight
        nextConstraintID += 1
        return c
    }

    // MARK: - Views

    /// The views added with `addView`, in creation order (not the root or the guides).
    public var views: [View] { allViews.all.filter { $0.isValid && $0.kind == .view } }

    /// The view, root or guide with this name, or nil.
    public func view(named name: String) -> View? { byName[name] }

    /// The live view (or root, or guide) with this `serial`, or nil. O(1).
    public func view(serial: Int) -> View? {
        viewBySerial[serial]
    }

    /// The view, root or guide with this name, or nil.
    public subscript(name: String) -> View? { byName[name] }

    /// Pages of the table of views by serial in use now (tests check that it follows the live views).
    public var _serialTablePages: Int { viewBySerial.allocatedPages }

    /// Pages of the table of constraints by id in use now (tests check that it follows the live constraints).
    public var _constraintTablePages: Int { byID.allocatedPages }

    /// Adds a view named `name` under `superview` (the root by default).
    ///
    /// - Parameters:
    ///   - name: unique within the layout; letters, digits and `_`, not starting with a digit, and not one of
    ///     `reservedNames`.
    ///   - superview: a view or the root of this layout (not a guide).
    /// - Returns: the new view, with margins 8, direction `.inherit`, no intrinsic size.
    /// - Throws: `.duplicateName`, `.invalid` (bad name, guide or foreign superview), `.stale`.
    @discardableResult
    public func addView(_ name: String, in superview: View? = nil) throws(LayoutError) -> View {
        try checkNotMeasuring()
        let parent = superview ?? root
        try checkName(name)
        guard byName[name] == nil else {
            throw LayoutError(.duplicateName, "a view named `\(name)` already exists")
        }
        try checkParent(parent)
        needsLayout = true
        return makeView(name, .view, superview: parent)
    }

    /// Adds many views under one superview in one call, all or nothing: the bulk form of `addView(_:in:)` and
    /// `View.setIntrinsicSize(width:height:)`, for bindings where a call per view costs more than the view
    /// (Python's ctypes: about 2 us a call). The names are checked first; then the views are made and their
    /// intrinsic sizes set in one change.
    /// - Parameters:
    ///   - names: the new views' names: valid, not in use, distinct.
    ///   - superview: their superview (nil: the root).
    ///   - intrinsicSizes: nil, or one (width, height) per name, nil on an axis for none (finite, 0...1e9).
    /// - Returns: the new views, in the order of `names`.
    /// - Throws: `.invalid` (a bad name or size, a size list whose length differs from the names', a guide or a
    ///   view of another layout as superview), `.duplicateName` (a name in use or given twice), `.stale`,
    ///   `.limit`. Nothing is added.
    @discardableResult
    public func addViews(_ names: [String], in superview: View? = nil,
                         intrinsicSizes: [(width: Double?, height: Double?)]? = nil) throws(LayoutError) -> [View] {
        try checkNotMeasuring()
        let parent = superview ?? root
        try checkParent(parent)
        if let sizes = intrinsicSizes, sizes.count != names.count {
            throw LayoutError(.invalid, "\(sizes.count) intrinsic sizes for \(names.count) views")
        }
        var given = Set<String>(minimumCapacity: names.count)
        for name in names {
            try checkName(name)
            guard byName[name] == nil else { throw LayoutError(.duplicateName, "a view named `\(name)` already exists") }
            guard given.insert(name).inserted else {
                throw LayoutError(.duplicateName, "the name `\(name)` is given twice")
            }
        }
        return try _transaction { (j: inout Journal) throws(LayoutError) -> [View] in
            var made: [View] = []
            made.reserveCapacity(names.count)
            for name in names { made.append(makeView(name, .view, superview: parent)) }
            // One undo step for all the views: a step per view left 10k closure contexts to free at the end of
            // the call, and the solver's small arrays made next landed in their holes, scattered, which made
            // later frames slower (docs/NOTES.md, tenth session).
            j.record { [unowned self, made] in for v in made.reversed() { self._unmakeView(v) } }
            if let sizes = intrinsicSizes {
                // The same for their intrinsic sizes (seven steps a size): the views are new, so undoing is
                // taking their intrinsic constraints out before the views go, whatever part of them went in.
                j.record { [unowned self, made] in
                    for v in made.reversed() {
                        let key = ObjectIdentifier(v)
                        for case let c? in (self.intrinsicByView[key] ?? []).reversed() {
                            self._uninstallNow(c)
                            self.byID[c.id] = nil
                        }
                        self.intrinsicByView[key] = nil
                    }
                }
                var fresh = Journal()
                fresh.isRecording = false
                for (v, size) in zip(made, sizes) {
                    if size.width != nil { try _setIntrinsic(v, .horizontal, size.width, &fresh) }
                    if size.height != nil { try _setIntrinsic(v, .vertical, size.height, &fresh) }
                }
            }
            return made
        }
    }

    func checkName(_ name: String) throws(LayoutError) {
        let b = Array(name.utf8)
        guard let f = b.first, Lexer.isIdentStart(f), b.allSatisfy(Lexer.isIdentBody) else {
            throw LayoutError(.invalid, "`\(name)` is not a valid view name (letters, digits and `_`, not starting with a digit)")
        }
        guard !Layout.reservedNames.contains(name) else {
            throw LayoutError(.invalid, "`\(name)` is reserved and cannot name a view")
        }
    }

    func checkParent(_ parent: View) throws(LayoutError) {
        guard parent.isValid, parent.layout === self else {
            throw LayoutError(parent.isValid ? .invalid : .stale, "`\(parent.name)` is not a view of this layout")
        }
        guard !parent.isGuide else {
            throw LayoutError(.invalid, "the layout guide `\(parent.name)` cannot have subviews")
        }
    }

    /// Removes a view, its subviews and every constraint that mentions any of them. Their handles become
    /// stale; their names are free again.
    /// - Throws: `.invalid` for the root or a guide or a view of another layout, `.stale`.
    public func removeView(_ view: View) throws(LayoutError) {
        guard view.isValid, view.layout === self else {
            throw LayoutError(view.isValid ? .invalid : .stale, "`\(view.name)` is not a view of this layout")
        }
        guard view.kind == .view || (view.kind == .layoutGuide && !view.isOwned) else {
            throw LayoutError(.invalid, view.isOwned ? "`\(view.name)` belongs to \(view.superview?.name ?? "its owner"); remove its owner instead"
                              : "the \(view.kind == .root ? "root" : "guide `\(view.name)`") cannot be removed")
        }
        try checkNotMeasuring()
        var doomed: [View] = []
        var stack = [view]   // pre-order, children in order, without recursion (deep hierarchies)
        while let v = stack.popLast() { doomed.append(v); stack.append(contentsOf: v.subviews.reversed()) }
        allViews.compact()
        userConstraints.compact()
        compactFramesToRefresh()
        var j = Journal()
        j.isRecording = false   // nothing below can fail, so nothing is ever undone
        let gone = byID.mentioning(anyOf: doomed).reversed().compactMap { byID[$0] }   // latest first
        // The solver takes them out as one change, in its own order (each definition once nothing uses it) and
        // optimises once. Should that fail (numerically), they go one by one, latest first.
        if (try? solver.remove(gone.compactMap(\.solverConstraint))) != nil {
            for c in gone { _forgetHandle(c) }
        }
        // Most of the re-issue table going (the main container): one pass over it, not a lookup per constraint.
        let inBulk = gone.count * 4 >= byKey.count * 3
        for c in gone { _discard(c, &j, keepingKey: inBulk) }
        if inBulk { _dropDiscardedKeys() }
        for v in doomed {
            intrinsicByView[ObjectIdentifier(v)] = nil
            if v.isListedAsMeasured { measuredViewsGone += 1 }
        }
        for v in doomed {
            releaseFrames(v)
            for x in v.variables {
                try? solver.removeVariable(x)
                viewByVariable[x.index] = nil
            }
            v.isValid = false
            byName[v.name] = nil
            viewBySerial.remove(at: v.serial)
        }
        allViews.noteRemoved(doomed.count)
        _arrangementsAfterRemoving(Set(doomed.map { ObjectIdentifier($0) }), views: doomed)
        if let parent = view.superview, let i = parent.subviews.lastIndex(where: { $0 === view }) {
            parent.subviews.remove(at: i)
        }
        view.superview = nil
        needsLayout = true
    }

    // MARK: - Root, safe area, keyboard

    /// Sets the root's size: two required constraints whose constants change in place (one incremental
    /// re-solve, not a rebuild).
    /// - Throws: `.invalid` for negative or non-finite sizes; `.unsatisfiable` when required constraints
    ///   cannot hold at that size (the size stays as it was).
    public func setRootSize(width: Double, height: Double) throws(LayoutError) {
        guard width.isFinite, height.isFinite, width >= 0, height >= 0, width <= 1e9, height <= 1e9 else {
            throw LayoutError(.invalid, "root size \(formatNumber(width)) x \(formatNumber(height)) must be finite, 0...1e9")
        }
        try _transaction { (j: inout Journal) throws(LayoutError) in
            let old = (rootWidth, rootHeight)
            rootWidth = width; rootHeight = height
            j.record { self.rootWidth = old.0; self.rootHeight = old.1 }
            try _setConstant(rootSizeConstraints[2], width, &j, refresh: false)
            try _setConstant(rootSizeConstraints[3], height, &j, refresh: false)
            try _refreshGroup([rootSizeConstraints[2], rootSizeConstraints[3]], &j)
        }
    }

    /// Sets the safe-area insets: the `safeArea` guide is the root inset by them.
    /// - Throws: `.invalid` for non-finite insets, `.unsatisfiable` (nothing changes).
    public func setSafeAreaInsets(_ insets: EdgeInsets) throws(LayoutError) {
        guard insets.areLengths else {
            throw LayoutError(.invalid, "safe-area insets \(insets) must be finite, within ±1e9")
        }
        try _transaction { (j: inout Journal) throws(LayoutError) in
            let old = safeAreaInsets
            safeAreaInsets = insets
            j.record { self.safeAreaInsets = old }
            try _setConstant(safeAreaConstraints[0], insets.top, &j, refresh: false)
            try _setConstant(safeAreaConstraints[1], insets.left, &j, refresh: false)
            try _setConstant(safeAreaConstraints[2], -insets.bottom, &j, refresh: false)
            try _setConstant(safeAreaConstraints[3], -insets.right, &j, refresh: false)
            try _refreshGroup(safeAreaConstraints, &j)
        }
    }

    /// Sets the keyboard height: the `keyboard` guide's height, its bottom being the root's bottom. Constraints
    /// attached to `keyboard.top` follow. Changed in place.
    /// - Throws: `.invalid` for a negative or non-finite height, `.unsatisfiable` (nothing changes).
    public func setKeyboardHeight(_ height: Double) throws(LayoutError) {
        guard Layout.isLength(height), height >= 0 else {   // (as animated: a length, 0...1e9)
            throw LayoutError(.invalid, "keyboard height \(formatNumber(height)) must be finite, 0...1e9")
        }
        try _transaction { (j: inout Journal) throws(LayoutError) in
            let old = keyboardHeight
            keyboardHeight = height
            j.record { self.keyboardHeight = old }
            try _setConstant(keyboardHeightConstraint, height, &j)
        }
    }

    // MARK: - Constraints

    /// The constraints made by equations (`eq`, `eqs`), active or not, in creation order.
    public var constraints: [LayoutConstraint] { userConstraints.live }

    /// Every live constraint of the layout: equations, intrinsic sizes, root size and guides, in creation order.
    public var allConstraints: [LayoutConstraint] { byID.all }

    /// The live constraint with this id, or nil.
    public func constraint(id: Int) -> LayoutConstraint? { byID[id] }

    /// The constraints that mention `view` (on either side), including its intrinsic-size constraints.
    public func constraints(affecting view: View) -> [LayoutConstraint] {
        byID.mentioning(view).compactMap { byID[$0] }
    }

    /// Removes a constraint made by an equation; its handle becomes stale.
    /// - Throws: `.invalid` for intrinsic, root and guide constraints (change their view instead), `.stale`.
    public func remove(_ constraint: LayoutConstraint) throws(LayoutError) {
        guard constraint.isValid, constraint.layout === self else {
            throw LayoutError(constraint.isValid ? .invalid : .stale,
                              "constraint `\(constraint)` is not a constraint of this layout")
        }
        guard constraint.origin == .equation else {
            throw LayoutError(.invalid, "`\(constraint)` belongs to the layout (\(constraint.note ?? "")); it cannot be removed")
        }
        try checkNotMeasuring()
        userConstraints.compact()
        var j = Journal()
        j.isRecording = false   // cannot fail
        _discard(constraint, &j)
        needsLayout = true
    }

    /// The equations of all constraints made by equations, one per line, each followed by `# line N` when it
    /// came from `eqs` and `# inactive` when it is not active (RMExtensions' `describe_view`).
    public func describeConstraints() -> String {
        userConstraints.live.map { c in
            var s = c.description
            var notes: [String] = []
            if let line = c.line { notes.append(c.source.map { "\($0):\(line)" } ?? "line \(line)") }
            if !c.isActive { notes.append("inactive") }
            if !notes.isEmpty { s += "  # " + notes.joined(separator: ", ") }
            return s
        }.joined(separator: "\n")
    }

    // MARK: - Solving

    /// Reads the solved values and updates the frames of the views that moved.
    /// - Returns: the views whose frame changed since the last solve, in creation order (also kept in
    ///   `changedViews`).
    /// - Complexity: O(k log k) for k views whose variables changed (and their subviews, when a view's origin
    ///   moved), beside the solver's incremental update: a frame in which one view moves costs the same in a
    ///   layout of 100 views or 100,000.
    /// - Throws: `.callback` when a measure function fails or measured content does not settle within
    ///   `maxMeasureRounds` (the frames stay as they were), `.misuse` from inside a measure function.
    @discardableResult
    public func solve() throws(LayoutError) -> [View] {
        try _solve()
        return changedViews
    }

    /// `solve()` without the list of views: the changed views are left in `changed` (a binding that
    /// hands out numbers makes no array of 100,000 references for a frame in which every view moves).
    package func _solve() throws(LayoutError) {
        try checkNotMeasuring()
        try _settleMeasuredContent()
        solver.updateVariables()
        allViews.compact()
        userConstraints.compact()
        // Taken, not copied: emptying a list whose buffer is shared makes a new one of the same capacity (a
        // buffer the size of the whole layout every frame, once a solve had refreshed every view).
        var touched: [Int32] = []
        swap(&touched, &framesToRefresh)
        defer {
            touched.removeAll(keepingCapacity: true)
            if framesToRefresh.isEmpty { swap(&touched, &framesToRefresh) }   // its room, for the next solve
        }
        framesToRefreshKept = 0
        solver.takeChangedVariables { x in
            let i = x.index
            guard i < slotByVariable.count else { return }
            let slot = Int(slotByVariable[i])
            if slot >= 0, !frames.slots[slot].queued {
                frames.slots[slot].queued = true
                touched.append(Int32(slot))
            }
        }
        // New frames in root space; when a view's origin moves, its subviews' relative frames move too.
        let direct = touched.count
        for k in 0 ..< direct {
            let slot = Int(touched[k])
            let e = frames.slots[slot]
            guard e.live else { continue }
            let f = Rect(x: clean(value(at: e.minX)), y: clean(value(at: e.minY)), width: clean(value(at: e.width)),
                         height: clean(value(at: e.height)))
            frames.slots[slot].pending = f
            guard f.x != e.root.x || f.y != e.root.y || !e.solved else { continue }
            guard e.subviewCount > 0, let v = viewBySerial[e.serial] else { continue }
            for sub in v.subviews where sub.slot >= 0 && !frames.slots[sub.slot].queued {
                frames.slots[sub.slot].queued = true
                touched.append(Int32(sub.slot))
            }
        }
        let kept = keepsChanged ? changed.count : 0
        if !keepsChanged { changed.removeAll(keepingCapacity: true) }
        for t in touched {
            let slot = Int(t)
            frames.slots[slot].queued = false
            let e = frames.slots[slot]
            guard e.live else { continue }
            let rootFrame = e.pending
            var rel = rootFrame
            if e.superSlot >= 0 {
                let origin = frames.slots[Int(e.superSlot)].pending
                rel.x = clean(rootFrame.x - origin.x)
                rel.y = clean(rootFrame.y - origin.y)
            }
            let moved = !e.solved || !rootFrame.isClose(to: e.root) || !rel.isClose(to: e.rel)
            frames.slots[slot].root = rootFrame
            frames.slots[slot].rel = rel
            frames.slots[slot].solved = true
            if moved, !e.guide { changed.append(ChangedView(serial: e.serial, slot: Int32(slot))) }
        }
        // Sorted as numbers (sorting the views by serial read two objects per comparison).
        changed.sort { $0.serial < $1.serial }
        if kept > 0 {   // once each (the later entry: its slot is the current one)
            var unique: [ChangedView] = []
            for c in changed.reversed() where unique.last?.serial != c.serial { unique.append(c) }
            changed = unique.reversed()
        }
        solveCount &+= 1
        needsLayout = false
    }

    /// A variable's solved value (0 for a stale one: not reached, every view's variables live as long as it).
    @inline(__always) func value(_ x: Variable) -> Double { (try? solver.value(of: x)) ?? 0 }

    /// A view variable's solved value, by index (unchecked: `FrameSlot` lists live ones only).
    @inline(__always) func value(at index: Int32) -> Double { solver._value(atIndex: Int(index)) }

    /// Queues `v`'s frame to be recomputed at the next solve, whether or not its variables change (a new view,
    /// a view moved to another superview).
    func refreshFrame(_ v: View) {
        let slot = v.slot
        guard slot >= 0, !frames.slots[slot].queued else { return }
        frames.slots[slot].queued = true
        framesToRefresh.append(Int32(slot))
    }

    /// Drops released slots from `framesToRefresh` once it has doubled since it was last compacted (amortised
    /// O(1) per view): a host that adds and removes views and never solves would grow it without end (1M
    /// add/remove cycles held 531 MB when it held the views). Call only between public calls.
    func compactFramesToRefresh() {
        guard framesToRefresh.count >= 2 * framesToRefreshKept + 64 else { return }
        framesToRefresh.removeAll { slot in
            if frames.slots[Int(slot)].live { return false }
            frames.slots[Int(slot)].queued = false
            return true
        }
        framesToRefreshKept = framesToRefresh.count
    }

    /// Solves if anything changed since the last solve (`needsLayout`), like UIKit's `layoutIfNeeded`.
    /// - Returns: the views whose frame changed, or `[]` when nothing needed a solve.
    /// - Throws: as `solve()`.
    @discardableResult
    public func layoutIfNeeded() throws(LayoutError) -> [View] {
        try _layoutIfNeeded() ? changedViews : []
    }

    /// `layoutIfNeeded()` without the list: whether it solved (then the changed views are in `changed`).
    package func _layoutIfNeeded() throws(LayoutError) -> Bool {
        guard needsLayout else { return false }
        try _solve()
        return true
    }

    /// Rounds away solver noise: values within 1e-9 of an integer become that integer, and -0 becomes 0.
    /// The nearest integer is `(d + 1.5 * 2^52) - 1.5 * 2^52`, two additions where `rounded()` is a call into
    /// libm (4% of a frame in which every view moves: six values a view). It differs from `rounded()` only on
    /// ties, which are 0.5 away and left as they are either way; from 2^51 on every double is an integer or
    /// a tie, so those (and NaN, infinities) are returned as they are.
    @inline(__always) package func clean(_ d: Double) -> Double {
        let shift = 6_755_399_441_055_744.0   // 1.5 * 2^52: the sum's spacing is 1
        guard abs(d) < 2_251_799_813_685_248.0 else { return d }   // 2^51
        let r = (d + shift) - shift
        if abs(d - r) < 1e-9 { return r == 0 ? 0 : r }
        return d
    }
}

/// What the parser and the shorthands produce: one constraint, before it becomes a `LayoutConstraint`.
struct Spec {
    var first: View
    var firstAttribute: LayoutAttribute
    var relation: LayoutRelation
    var second: View?
    var secondAttribute: LayoutAttribute?
    var multiplier: Double
    var divisor: Double?
    var constant: Double
    var priority: Double
    /// How much a violation counts against others of the same priority (the solver's weight; 1 from text).
    var weight: Double = 1

    var key: ConstraintKey {
        ConstraintKey(first: ObjectIdentifier(first), firstAttribute: firstAttribute, relation: relation,
                      second: second.map(ObjectIdentifier.init), secondAttribute: secondAttribute,
                      multiplier: multiplier, priority: priority)
    }
}

/// RMExtensions' identity of an equation: everything but the constant.
struct ConstraintKey: Hashable {
    var first: ObjectIdentifier
    var firstAttribute: LayoutAttribute
    var relation: LayoutRelation
    var second: ObjectIdentifier?
    var secondAttribute: LayoutAttribute?
    var multiplier: Double
    var priority: Double

    /// One cheap mix instead of the synthesized hash, which hashes each attribute's String raw value (the
    /// lookups of every equation added went through it).
    func hash(into hasher: inout Hasher) {
        func tag<E>(_ e: E) -> UInt64 { withUnsafeBytes(of: e) { $0.isEmpty ? 0 : UInt64($0[0]) } }  // payload-free enum: its case
        var x = UInt64(UInt(bitPattern: first)) &* 0x9E37_79B9_7F4A_7C15
        x ^= UInt64(second.map { UInt(bitPattern: $0) } ?? 0) &* 0xC2B2_AE3D_27D4_EB4F
        x ^= tag(firstAttribute) << 56 ^ tag(relation) << 48 ^ (secondAttribute.map(tag) ?? 0xFF) << 40
        x ^= multiplier.bitPattern &* 0x1656_67B1_9E37_79F9 ^ priority.bitPattern
        hasher.combine(x)
    }
}

extension LayoutConstraint {
    var key: ConstraintKey {
        ConstraintKey(first: ObjectIdentifier(firstView), firstAttribute: firstAttribute, relation: relation,
                      second: secondView.map(ObjectIdentifier.init), secondAttribute: secondAttribute,
                      multiplier: multiplier, priority: priority)
    }
}
