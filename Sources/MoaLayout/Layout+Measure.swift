// Moa — solving with content that sizes itself: natural widths first, then heights for the solved widths,
// re-solved until nothing changes (bounded); text content; fitting sizes of a subtree.

import MoaSolver

extension Layout {
    /// Solves after which measured content must have settled: widths, then heights for those widths, then
    /// widths again if the heights moved them, and so on. A layout whose content needs more fails the solve
    /// with `.callback` (nothing changes). Content that depends only on its width settles in two.
    public static let maxMeasureRounds = 8

    /// Throws `.misuse` while a measure function of this layout runs.
    func checkNotMeasuring() throws(LayoutError) {
        guard !isMeasuring else {
            throw LayoutError(.misuse, "the layout cannot be changed or solved from inside one of its measure functions")
        }
        guard !isReportingProgress else {
            throw LayoutError(.misuse, "the layout cannot be changed or solved from inside its progress handler")
        }
    }

    /// Throws `.misuse` from inside a measure function or the progress handler (for the C layer's calls that
    /// change the layout outside the layout's own checks).
    package func _checkCanChange() throws(LayoutError) { try checkNotMeasuring() }

    /// Measures `v`'s content for `p`, from its cache when it has the answer.
    func _measure(_ v: View, _ p: MeasureProposal) throws(LayoutError) -> MeasuredSize {
        guard let content = v.content else { return MeasuredSize(width: 0, height: 0) }
        if let size = content.cached(p) {
            measureStatistics.cacheHits += 1
            return size
        }
        measureStatistics.calls += 1
        measureStatistics.lastCalls += 1
        let size: MeasuredSize
        isMeasuring = true
        do {
            size = try content.measure(p)
        } catch let e as LayoutError {
            isMeasuring = false
            throw LayoutError(.callback, "measuring `\(v.name)` (\(p)) failed: \(e.message)")
        } catch {
            isMeasuring = false
            throw LayoutError(.callback, "measuring `\(v.name)` (\(p)) failed: \(error)")
        }
        isMeasuring = false
        if let problem = size.problem {
            throw LayoutError(.callback, "the measure function of `\(v.name)` answered \(problem) (\(p))")
        }
        content.store(p, size)
        return size
    }

    /// Lists `v` for the next settle (`measurePending`): its content was set or invalidated.
    func needsMeasure(_ v: View) {
        guard !v.isPendingMeasure else { return }
        v.isPendingMeasure = true
        measurePending.append(v)
    }

    /// Gives measured content its sizes before a solve reads frames: each view's natural width as its intrinsic
    /// width, and its height for the width it is solved at as its intrinsic height (with its baselines), solving
    /// again until no height changes. Only views whose width changed (or whose content was invalidated) are
    /// measured. A failure undoes every size it set.
    ///
    /// Usually only the measured views whose width variable changed since the last solve are looked at (the
    /// solver's changed variables, not taken here: `solve()` takes them for the frames), so a frame in which a
    /// few views move costs the same with 100 labels or 100,000; so are the views whose content was set or
    /// invalidated (`measurePending`). After a change that can concern any measured view (`measureAll`: a new
    /// text measurer, a failed settle) or a new root width (adaptive text), every one is looked at. Removed
    /// views leave the list once they are half of it.
    func _settleMeasuredContent() throws(LayoutError) {
        guard !measuredViews.isEmpty else { return }
        let all = measureAll || measuredAtRootWidth != rootWidth
        let pending = all ? [] : measurePending.filter { $0.isValid && $0.content != nil }
        for v in measurePending { v.isPendingMeasure = false }
        measurePending = []
        if all || measuredViewsGone * 2 > measuredViews.count {
            measuredViewsGone = 0
            measuredViews.removeAll { v in
                let gone = !v.isValid || v.content == nil
                if gone { v.isListedAsMeasured = false }
                return gone
            }
        }
        measureStatistics.lastCalls = 0
        measureStatistics.lastExamined = 0
        var j = Journal()
        var rounds = 0
        do throws(LayoutError) {
            /// Widths first: the natural size is the intrinsic width (and a first height).
            func measureNatural(_ v: View) throws(LayoutError) {
                let c = v.content!
                guard c.natural == nil else { return }
                let size = try _measure(v, .natural)
                let old = (c.natural, c.measuredForWidth)
                j.record { (c.natural, c.measuredForWidth) = old }
                c.natural = size
                c.measuredForWidth = nil
                try _setIntrinsic(v, .horizontal, size.width, &j)
                if v.intrinsicHeight == 0 { try _setIntrinsic(v, .vertical, size.height, &j) }
            }
            if all {
                for v in measuredViews {
                    let c = v.content!
                    if c.followsRootWidth && c.rootWidth != rootWidth {
                        let old = (c.cache, c.natural, c.measuredForWidth, c.rootWidth)
                        j.record { (c.cache, c.natural, c.measuredForWidth, c.rootWidth) = old }
                        c.invalidate()
                        c.rootWidth = rootWidth
                    }
                    try measureNatural(v)
                }
            } else {
                for v in pending { try measureNatural(v) }
            }
            while true {
                solver.updateVariables()
                var moved: [View] = []
                var heights: [(View, Double)] = []
                func look(_ v: View) throws(LayoutError) {
                    guard let c = v.content else { return }
                    measureStatistics.lastExamined += 1
                    let w = clean(value(v.variables[2]))
                    guard c.measuredForWidth != w else { return }
                    let size = try _measure(v, .width(max(w, 0)))
                    let old = c.measuredForWidth
                    j.record { c.measuredForWidth = old }
                    c.measuredForWidth = w
                    var changed = false
                    if v.intrinsicHeight != size.height {
                        heights.append((v, size.height))
                        changed = true
                    }
                    if v.baselineOffset != size.baseline || v.firstBaselineOffset != size.firstBaseline {
                        try _setBaseline(v, size.baseline, size.firstBaseline, &j)
                        changed = true
                    }
                    if changed { moved.append(v) }
                }
                if all && rounds == 0 {
                    for v in measuredViews { try look(v) }
                } else {
                    if rounds == 0 { for v in pending { try look(v) } }
                    // Each variable is listed once; a view's width variable names the view.
                    for x in solver.changedVariablesSoFar() {
                        let i = x.index
                        guard i < viewByVariable.count, let v = viewByVariable[i], v.isValid, v.isListedAsMeasured,
                              v.variables[2] == x else { continue }
                        try look(v)
                    }
                }
                try _setIntrinsicHeights(heights, &j)
                if moved.isEmpty { break }
                rounds += 1
                if rounds >= Layout.maxMeasureRounds {
                    let names = moved.prefix(5).map { "`\($0.name)`" }.joined(separator: ", ")
                    throw LayoutError(.callback, "measured content did not settle in \(Layout.maxMeasureRounds) solves (still changing: \(names)\(moved.count > 5 ? ", ..." : ""))")
                }
            }
        } catch {
            _undo(j)
            solver.updateVariables()
            measureAll = true
            throw error
        }
        measureAll = false
        measuredAtRootWidth = rootWidth
        measureStatistics.lastRounds = rounds
    }

    /// `_setIntrinsic(v, .vertical, h)` for every pair, with the solver's constants changed as one batch where
    /// only constants move (views measured again at a new width: one re-solve instead of one per view; a
    /// rotation of 10k wrapping labels took 1.7 s). Views whose intrinsic height constraints are not in the
    /// solver yet, or whose stack sizes in proportion to them, go one by one. If the batch fails, the same
    /// changes are made view by view (so errors are as `_setIntrinsic` reports them).
    func _setIntrinsicHeights(_ batch: [(View, Double)], _ j: inout Journal) throws(LayoutError) {
        var items: [(Constraint, Double)] = [], olds: [(Constraint, Double)] = []
        var batched: [[LayoutConstraint]] = [], refresh: [[LayoutConstraint]] = []
        var rest: [(View, Double)] = []
        for (v, h) in batch {
            let proportional = v.arrangingStack.map {
                $0.isValid && $0.distribution == .fillProportionally && $0.axis == .vertical
            } ?? false
            guard h.isFinite, h >= 0, h <= 1e9, v.intrinsicHeight != nil, !proportional else {
                rest.append((v, h)); continue
            }
            let cs = ContentRole.allCases.map { _intrinsicConstraint(v, .vertical, $0, &j) }
            guard cs.allSatisfy({ $0.isActive && $0.solverConstraint != nil }) else { rest.append((v, h)); continue }
            let oldHeight = v.intrinsicHeight
            v.intrinsicHeight = h
            j.record { v.intrinsicHeight = oldHeight }
            var reshaped = false   // not expected of a size constraint; then the usual way
            for c in cs {
                try _setConstant(c, h, &j, refresh: false)
                guard let handle = c.solverConstraint, let installed = c.installedExpression else { continue }
                let e = _expression(c)
                if e.terms != installed.terms {
                    reshaped = true
                } else if e.constant != installed.constant {
                    items.append((handle, e.constant)); olds.append((handle, installed.constant))
                }
            }
            batched.append(cs)
            if reshaped { refresh.append(cs) }
        }
        if !items.isEmpty {
            do throws(SolverError) {
                try solver.setConstants(items)
                j.record { [unowned self] in try? self.solver.setConstants(olds) }
            } catch {
                refresh = batched
            }
        }
        for cs in refresh { try _refreshGroup(cs, &j) }
        for (v, h) in rest { try _setIntrinsic(v, .vertical, h, &j) }
    }

    // MARK: - Text

    /// Sets what measures text content, and re-measures every view with text at the next solve.
    public func setTextMeasurer(_ measurer: TextMeasurer) throws(LayoutError) {
        try checkNotMeasuring()
        textMeasurer = measurer
        for v in measuredViews where v.isValid && v.text != nil { v.content?.invalidate() }
        measureAll = true
        needsLayout = true
    }

    /// The lines of `v`'s text as it is drawn at its solved width (nil for a view without text).
    /// - Throws: `.callback` when the text measurer fails.
    public func textLines(of v: View) throws(LayoutError) -> TextLines? {
        guard let text = v.text else { return nil }
        // A font's advance function runs from here too (pictures, text_lines): measuring, so that it cannot
        // change the layout in the middle of the call, as during a solve.
        let wasMeasuring = isMeasuring
        isMeasuring = true
        defer { isMeasuring = wasMeasuring }
        do {
            return try TextLines.wrap(text, width: max(v.frame.width, 0), rootWidth: rootWidth, measurer: textMeasurer)
        } catch {
            throw LayoutError(.callback, "measuring the text of `\(v.name)` failed: \(error)")
        }
    }

    /// The measure function of text content: natural size on one line per paragraph, or wrapped at the
    /// proposed width; baselines from the measurer's metrics.
    func _textMeasure(_ v: View) -> MeasureFunction {
        return { [unowned self, unowned v] p in
            guard let text = v.text else { return MeasuredSize(width: 0, height: 0) }
            let lines = try TextLines.wrap(text, width: p.width, heightLimit: p.height, rootWidth: self.rootWidth,
                                           measurer: self.textMeasurer)
            // Within the lengths a layout takes (a long line of huge type is wider than 1e9, and a measured size
            // beyond it fails every solve): text that long is cut at the edge like any overflowing content.
            let width = p.widthMode == .exactly ? p.width : min(lines.width, Layout.maxLength)
            let height = p.heightMode == .exactly ? p.height : min(lines.height, Layout.maxLength)
            guard !lines.lines.isEmpty else { return MeasuredSize(width: width, height: height) }
            return MeasuredSize(width: width, height: height, baseline: min(lines.lastBaseline, Layout.maxLength),
                                firstBaseline: min(lines.firstBaseline, Layout.maxLength))
        }
    }

    // MARK: - Fitting size

    /// The size `v`'s subtree takes under its own constraints (those between `v` and its descendants, their
    /// intrinsic sizes and measured content) when `v`'s width is pulled toward `width` at `horizontalPriority`
    /// and its height toward `height` at `verticalPriority`: Auto Layout's
    /// `systemLayoutSizeFitting(_:withHorizontalFittingPriority:verticalFittingPriority:)`. A table cell's
    /// height for a width: `fittingSize(of: cell, width: 320, height: 0, horizontalPriority: required)`. Width
    /// and height 0 at `fittingSizeLevel` (the defaults) give the smallest size; a large target, the largest.
    /// The live layout is not touched (a scratch solver; measure functions may be called, and their cache used).
    /// - Throws: `.invalid` for a bad target or priority, `.unsatisfiable` when a required target cannot hold,
    ///   `.callback` as `solve()`, `.stale`, `.misuse` from inside a measure function.
    public func fittingSize(of v: View, width: Double = 0, height: Double = 0,
                            horizontalPriority: Double = LayoutPriority.fittingSizeLevel,
                            verticalPriority: Double = LayoutPriority.fittingSizeLevel) throws(LayoutError) -> (width: Double, height: Double) {
        guard v.isValid, v.layout === self else {
            throw LayoutError(v.isValid ? .invalid : .stale, "`\(v.name)` is not a view of this layout")
        }
        try checkNotMeasuring()
        for (name, x) in [("width", width), ("height", height)] where !(x.isFinite && x >= 0 && x <= 1e9) {
            throw LayoutError(.invalid, "fitting \(name) \(formatNumber(x)) must be finite, 0...1e9")
        }
        for p in [horizontalPriority, verticalPriority] where !LayoutPriority.isValid(p) {
            throw LayoutError(.invalid, "priority \(formatNumber(p)) is outside 1...1000")
        }
        let inside = Set(_subtree(v).map(ObjectIdentifier.init))
        let scratch = Solver()
        var vars: [Variable: Variable] = [:]
        func mapped(_ x: Variable) -> Variable {
            if let m = vars[x] { return m }
            let m = scratch.addVariable()
            vars[x] = m
            return m
        }
        func mapped(_ e: Expression) -> Expression {
            Expression(e.terms.map { Term(mapped($0.variable), $0.coefficient) }, constant: e.constant)
        }
        var subtree: [View] = []
        var stack = [v]
        while let x = stack.popLast() { subtree.append(x); stack.append(contentsOf: x.subviews) }
        // The subtree's own constraints, but not the intrinsic sizes of measured content (measured again here).
        var seen = Set<Int>()
        for x in subtree {
            for id in byID.mentioning(x) where seen.insert(id).inserted {
                guard let c = byID[id], let h = c.solverConstraint, let e = c.installedExpression,
                      inside.contains(ObjectIdentifier(c.firstView)),
                      c.secondView.map({ inside.contains(ObjectIdentifier($0)) }) ?? true else { continue }
                if c.origin == .rootSize { continue }
                if case .intrinsic = c.origin, c.firstView.content != nil { continue }
                let p = (try? solver.priority(of: h)) ?? c.priority
                _ = try? scratch.add(mapped(e), c.relation.solverRelation, priority: p)
            }
        }
        let w = mapped(v.variables[2]), h = mapped(v.variables[3])
        do throws(SolverError) {
            _ = try scratch.add(Expression([Term(w)], constant: -width), .equal, priority: horizontalPriority)
            _ = try scratch.add(Expression([Term(h)], constant: -height), .equal, priority: verticalPriority)
        } catch {
            throw LayoutError(.unsatisfiable, "`\(v.name)` cannot take the fitting size \(formatNumber(width)) x \(formatNumber(height)) at the required priority")
        }
        // Measured content in the subtree: natural width, then height for the width, as a solve does.
        let measured = subtree.filter { $0.content != nil }
        var heightConstraints: [[Constraint]] = []
        for x in measured {
            let natural = try _measure(x, .natural)
            let xw = mapped(x.variables[2]), xh = mapped(x.variables[3])
            var hs: [Constraint] = []
            for (axis, variable, size) in [(LayoutAxis.horizontal, xw, natural.width), (.vertical, xh, natural.height)] {
                for role in ContentRole.allCases {
                    let e = Expression([Term(variable)], constant: -size)
                    let priority = role == .hugging ? x.hugging[axis.rawValue] : x.compression[axis.rawValue]
                    if let c = try? scratch.add(e, role == .hugging ? .lessOrEqual : .greaterOrEqual, priority: priority),
                       axis == .vertical { hs.append(c) }
                }
            }
            heightConstraints.append(hs)
        }
        var measuredFor = [Double?](repeating: nil, count: measured.count)
        var rounds = 0
        while !measured.isEmpty {
            scratch.updateVariables()
            var changed = false
            for (i, x) in measured.enumerated() {
                let xw = clean((try? scratch.value(of: mapped(x.variables[2]))) ?? 0)
                guard measuredFor[i] != xw else { continue }
                measuredFor[i] = xw
                let size = try _measure(x, .width(max(xw, 0)))
                for c in heightConstraints[i] where (try? scratch.constant(of: c)) != -size.height {
                    try? scratch.setConstant(-size.height, of: c)
                    changed = true
                }
            }
            if !changed { break }
            rounds += 1
            if rounds >= Layout.maxMeasureRounds {
                throw LayoutError(.callback, "measured content in `\(v.name)` did not settle in \(Layout.maxMeasureRounds) solves")
            }
        }
        scratch.updateVariables()
        return (clean((try? scratch.value(of: w)) ?? 0), clean((try? scratch.value(of: h)) ?? 0))
    }
}

extension View {
    /// Gives the view content that sizes itself (nil: none): the layout calls `measure` when it solves, takes
    /// the natural size (`MeasureProposal.natural`) as the intrinsic width and the size for the solved width
    /// (`MeasureProposal.width(_:)`) as the intrinsic height and baselines, with the view's hugging and
    /// compression priorities. Answers are cached per proposal until `invalidateMeasure()`. Taking the
    /// function away removes the intrinsic size and baselines it gave.
    /// - Throws: `.stale`, `.invalid` for a guide or the root, `.misuse` from inside a measure function.
    public func setMeasure(_ measure: MeasureFunction?) throws(LayoutError) {
        let layout = try checkUsable()
        try layout.checkNotMeasuring()
        guard kind == .view else { throw LayoutError(.invalid, "`\(name)` cannot have measured content") }
        try _setMeasure(measure, text: nil, layout)
    }

    func _setMeasure(_ measure: MeasureFunction?, text: TextContent?, _ layout: Layout) throws(LayoutError) {
        layout.needsMeasure(self)
        if let measure {
            try layout._transaction { (j: inout Journal) throws(LayoutError) in
                let old = (content, self.text)
                if content == nil {
                    // Listed once: content set, cleared and set again before a solve used to list the view
                    // again each time, and every later solve measured it that many times over (found by the
                    // soak test: 44 ns more per solve for each past cycle).
                    if !isListedAsMeasured {
                        layout.measuredViews.append(self)
                        isListedAsMeasured = true
                    }
                    // The intrinsic-size constraints go in now (at 0 until measured), before the equations that
                    // usually follow: the solver then defines the view's size by them and its position by the
                    // equations, which keeps stacks of measured views linear to solve.
                    if intrinsicWidth == nil { try layout._setIntrinsic(self, .horizontal, 0, &j) }
                    if intrinsicHeight == nil { try layout._setIntrinsic(self, .vertical, 0, &j) }
                }
                j.record { (self.content, self.text) = old }
                content = MeasuredContent(measure)
                content!.followsRootWidth = text?.style.referenceWidth != nil
                self.text = text
            }
        } else {
            try layout._transaction { (j: inout Journal) throws(LayoutError) in
                let old = (content, self.text)
                j.record { (self.content, self.text) = old }
                content = nil
                self.text = nil
                if isListedAsMeasured { layout.measuredViewsGone += 1 }   // (compacted away at a solve)
                try layout._setIntrinsic(self, .horizontal, nil, &j)
                try layout._setIntrinsic(self, .vertical, nil, &j)
                try layout._setBaseline(self, nil, nil, &j)
            }
        }
    }

    /// Forgets the cached answers of the view's measure function: its content changed (Auto Layout's
    /// `invalidateIntrinsicContentSize`). The next solve measures it again.
    /// - Throws: `.stale`, `.invalid` when the view has no measured content, `.misuse` from inside a measure
    ///   function.
    public func invalidateMeasure() throws(LayoutError) {
        let layout = try checkUsable()
        try layout.checkNotMeasuring()
        guard let content else { throw LayoutError(.invalid, "`\(name)` has no measured content") }
        content.invalidate()
        layout.needsMeasure(self)
        layout.needsLayout = true
    }

    /// Whether the view has a measure function (its own, or its text's).
    public var isMeasured: Bool { content != nil }

    /// Gives the view text (nil: none), measured by the layout's `textMeasurer`: its natural width is the
    /// widest paragraph on one line, its height the wrapped lines at the width it gets, its baselines those of
    /// the first and last line. Replaces a measure function the view had.
    /// - Throws: `.invalid` for a bad style, a guide or the root; `.stale`; `.misuse` from a measure function.
    public func setText(_ text: TextContent?) throws(LayoutError) {
        let layout = try checkUsable()
        try layout.checkNotMeasuring()
        guard kind == .view else { throw LayoutError(.invalid, "`\(name)` cannot have text") }
        guard let text else { return try _setMeasure(nil, text: nil, layout) }
        if let problem = text.style.problem { throw LayoutError(.invalid, "text of `\(name)`: \(problem)") }
        try _setMeasure(layout._textMeasure(self), text: text, layout)
    }
}
