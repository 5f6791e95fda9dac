// Moa — the layout's engine room: constraint expressions, install/uninstall/refresh with an undo journal, and
// the property changes built on them. Every public mutation runs in `_transaction`, so a failure anywhere
// undoes every step already taken.

import MoaSolver

/// Undo steps of one layout call, run in reverse order when the call fails.
struct Journal {
    var undo: [() -> Void] = []
    /// False where nothing needs an undo step per change: a change that cannot fail (removing a view), or
    /// changes to views made in the same call, undone with them (`addViews`). Steps that check it skip making
    /// their undo.
    var isRecording = true
    mutating func record(_ step: @escaping () -> Void) { if isRecording { undo.append(step) } }
}

extension LayoutRelation {
    var solverRelation: Relation {
        switch self {
        case .equal: return .equal
        case .lessOrEqual: return .lessOrEqual
        case .greaterOrEqual: return .greaterOrEqual
        }
    }
}

/// `a + k * b`, merging terms of the same variable.
func addScaled(_ a: inout Expression, _ b: Expression, _ k: Double) {
    for t in b.terms {
        if let i = a.terms.firstIndex(where: { $0.variable == t.variable }) {
            a.terms[i].coefficient += k * t.coefficient
        } else {
            a.terms.append(Term(t.variable, k * t.coefficient))
        }
    }
    a.constant += k * b.constant
}

extension Layout {
    // MARK: - Transactions

    /// Runs `body`; if it throws, undoes every journaled step and rethrows. Marks the layout as needing a solve.
    func _transaction<T>(_ body: (inout Journal) throws(LayoutError) -> T) throws(LayoutError) -> T {
        try checkNotMeasuring()
        if callDepth == 0 {
            callSteps = 0
            if maxSecondsPerCall > 0 {
                // The time limit also stops a solver call in the middle (`Solver.callDeadline`).
                callStart = monotonicSeconds()
                solver.callDeadline = callStart + maxSecondsPerCall
            }
        }
        callDepth += 1
        defer {
            callDepth -= 1
            if callDepth == 0 { solver.callDeadline = 0 }
        }
        var j = Journal()
        do throws(LayoutError) {
            let r = try body(&j)
            needsLayout = true
            return r
        } catch {
            _undo(j)
            throw error
        }
    }

    /// Runs a journal's undo steps, latest first. Undoing puts back what was there, so no limit applies to it
    /// (a refused re-add would lose a constraint).
    func _undo(_ j: Journal) {
        let wasRollingBack = isRollingBack, limits = solver.limits, deadline = solver.callDeadline
        isRollingBack = true
        solver.limits = .none
        solver.callDeadline = 0
        for step in j.undo.reversed() { step() }
        solver.limits = limits
        solver.callDeadline = deadline
        isRollingBack = wasRollingBack
    }

    /// Counts one constraint going into the solver in a call, and applies the call's limits: every 64 the time
    /// (`LayoutLimits.maxSecondsPerCall`), every `progressInterval` the progress handler. Throws `.limit`; the
    /// call's transaction then undoes everything. Undoing is never limited.
    func _countStep() throws(LayoutError) {
        guard callDepth > 0, !isRollingBack else { return }
        callSteps += 1
        if maxSecondsPerCall > 0, callSteps & 63 == 0 {
            let elapsed = monotonicSeconds() - callStart
            if elapsed > maxSecondsPerCall {
                throw LayoutError(.limit, "the call took \(formatNumber(elapsed)) s after \(callSteps) constraints, "
                                  + "over the layout's limit of \(formatNumber(maxSecondsPerCall)) s")
            }
        }
        if let handler = progressHandler, callSteps % progressInterval == 0 {
            isReportingProgress = true
            let goOn = handler(callSteps)
            isReportingProgress = false
            if !goOn {
                throw LayoutError(.limit, "the progress handler stopped the call after \(callSteps) constraints")
            }
        }
    }

    // MARK: - Expressions

    /// Adds `scale` times the attribute of `v` as the constraint sees it to `e`: physical, or mirrored across
    /// the root's vertical centre line for a directional constraint in a right-to-left context.
    func _addAttribute(_ v: View, _ a: LayoutAttribute, mirrored: Bool, scale: Double, to e: inout Expression) {
        guard mirrored, a.axis == .horizontal, !a.isSize else {
            v.addPhysical(a, rightToLeft: false, scale: scale, to: &e)
            return
        }
        // u = root.left + root.right - x, with leading/trailing read right-to-left.
        addScaled(&e, Expression([Term(root.variables[0], 2), Term(root.variables[2], 1)]), scale)
        v.addPhysical(a, rightToLeft: true, scale: -scale, to: &e)
    }

    /// `first - (multiplier * second + constant)`: the solver form `expression REL 0` of a constraint.
    func _expression(_ c: LayoutConstraint) -> Expression {
        let mirrored = c.isDirectional && c.firstView.effectiveLayoutDirection == .rightToLeft
        var e = Expression([], constant: 0)
        e.terms.reserveCapacity(4)
        _addAttribute(c.firstView, c.firstAttribute, mirrored: mirrored, scale: 1, to: &e)
        if let s = c.secondView, let a = c.secondAttribute {
            _addAttribute(s, a, mirrored: mirrored, scale: -c.multiplier, to: &e)
        }
        e.constant -= c.constant
        e.terms.removeAll { $0.coefficient == 0 }
        return e
    }

    /// The expression in words, with the solver's variable names: `table.minY - calendar.minY - 8 == 0 @ 750`.
    func _describeSolverForm(_ c: LayoutConstraint) -> String {
        let e = c.installedExpression ?? _expression(c)
        var s = ""
        for t in e.terms {
            let name = (try? solver.name(of: t.variable)) ?? "?"
            let k = t.coefficient
            if s.isEmpty {
                s += k == 1 ? name : k == -1 ? "-\(name)" : "\(formatNumber(k))*\(name)"
            } else {
                s += k < 0 ? " - " : " + "
                s += abs(k) == 1 ? name : "\(formatNumber(abs(k)))*\(name)"
            }
        }
        if e.constant != 0 || s.isEmpty {
            if s.isEmpty { s = formatNumber(e.constant) } else {
                s += e.constant < 0 ? " - \(formatNumber(-e.constant))" : " + \(formatNumber(e.constant))"
            }
        }
        return "\(s) \(c.relation.rawValue) 0 @ \(formatNumber(c.priority))"
    }

    // MARK: - Solver steps (each journaled)

    /// The layout error for a solver failure while handling `c`.
    func _error(_ e: SolverError, for c: LayoutConstraint, conflicts known: [LayoutConstraint]? = nil) -> LayoutError {
        switch e {
        case .unsatisfiable(let handles):
            let conflicts = known.map { $0.map(\.info) } ?? handles.compactMap { owner(of: $0)?.info }
            var msg = "required constraint \(c.located) cannot hold"
            if conflicts.isEmpty {
                let alone = (c.installedExpression ?? _expression(c)).terms.isEmpty
                msg += alone ? " (it contradicts itself)" : " (the solver named no other constraint)"
            } else {
                msg += " together with " + conflicts.map(\.description).joined(separator: ", ")
            }
            let error = LayoutError(.unsatisfiable, msg, line: c.line, source: c.source, constraint: c.info,
                                    conflicts: conflicts)
            if recentConflicts.count == Layout.recentConflictLimit { recentConflicts.removeFirst() }
            recentConflicts.append(error)
            return error
        case .invalidArgument(let m):
            return LayoutError(.invalid, "\(c.located): \(m)", line: c.line, source: c.source, constraint: c.info)
        case .limit(let m):
            return LayoutError(.limit, "\(c.located): \(m)", line: c.line, source: c.source, constraint: c.info)
        default:
            return LayoutError(.internalError, "\(c.located): solver error: \(e)", line: c.line, source: c.source,
                               constraint: c.info)
        }
    }

    /// Puts `c` into the solver (it must not be there), as its current fields say.
    func _install(_ c: LayoutConstraint, _ j: inout Journal) throws(LayoutError) {
        try _install(c, _expression(c), priority: c.priority, &j)
    }

    /// Puts `c` into the solver with expression `e` at `priority`.
    func _install(_ c: LayoutConstraint, _ e: Expression, priority: Double, _ j: inout Journal) throws(LayoutError) {
        try _installNow(c, e, priority: priority)
        j.record { [unowned self] in self._uninstallNow(c) }
    }

    /// `_install` without a journal entry (undo with `_uninstallNow`).
    func _installNow(_ c: LayoutConstraint, _ e: Expression, priority: Double) throws(LayoutError) {
        do throws(LayoutError) {
            try _countStep()
        } catch {
            throw LayoutError(.limit, "\(c.located): \(error.message)", line: c.line, source: c.source,
                              constraint: c.info)
        }
        let h: Constraint
        do throws(SolverError) {
            // Named by `solver.tagProvider`.
            h = try solver.add(e, c.relation.solverRelation, priority: priority, weight: c.weight)
        } catch {
            throw _error(error, for: c)
        }
        c.solverConstraint = h
        while byHandleIndex.count <= h.index { byHandleIndex.append(nil) }
        byHandleIndex[h.index] = c
    }

    /// The layout constraint installed as solver constraint `h`, or nil.
    func owner(of h: Constraint) -> LayoutConstraint? {
        guard h.index < byHandleIndex.count, let c = byHandleIndex[h.index], c.solverConstraint == h else { return nil }
        return c
    }

    func _uninstallNow(_ c: LayoutConstraint) {
        guard let h = c.solverConstraint else { return }
        try? solver.remove(h)
        _forgetHandle(c)
    }

    /// Forgets `c`'s solver handle (the solver no longer has it).
    func _forgetHandle(_ c: LayoutConstraint) {
        guard let h = c.solverConstraint else { return }
        if byHandleIndex[h.index] === c { byHandleIndex[h.index] = nil }
        c.solverConstraint = nil
    }

    /// Takes `c` out of the solver (if it is there). Undoing puts back exactly what was there (the same
    /// expression and priority), which held before, so it holds again.
    func _uninstall(_ c: LayoutConstraint, _ j: inout Journal) {
        guard let h = c.solverConstraint else { return }
        guard j.isRecording, let e = c.installedExpression else { _uninstallNow(c); return }
        let p = (try? solver.priority(of: h)) ?? c.priority
        _uninstallNow(c)
        j.record { [unowned self] in
            var ignored = Journal()
            ignored.isRecording = false
            try? self._install(c, e, priority: p, &ignored)
        }
    }

    /// Brings the solver's copy of `c` up to date: a constant change in place, or a rebuild when its variables
    /// or coefficients changed (a direction flip, a baseline offset set or cleared).
    func _refresh(_ c: LayoutConstraint, _ j: inout Journal) throws(LayoutError) {
        guard let h = c.solverConstraint else { return }
        switch try _refreshConstant(c, h) {
        case .unknown: return
        case .constant(let old):
            if let old { j.record { [unowned self] in try? self.solver.setConstant(old, of: h) } }
        case .terms:
            _uninstall(c, &j)
            try _install(c, &j)
        }
    }

    /// What `_refreshConstant` found.
    enum ConstantRefresh {
        /// The terms are the installed ones: the solver has the new constant (the old one to undo it, nil when
        /// it did not change).
        case constant(Double?)
        /// The terms changed: the constraint must be installed again.
        case terms
        /// The handle is not the solver's.
        case unknown
    }

    /// Gives the solver `c`'s new constant when its expression keeps the installed terms (the installed
    /// expression is compared in place: making it was an array per animated constant a frame). Throws the
    /// solver's failure (nothing changed), described with the constant `c` has now.
    func _refreshConstant(_ c: LayoutConstraint, _ h: Constraint) throws(LayoutError) -> ConstantRefresh {
        let e = _expression(c)
        guard let installed = try? solver.compare(h, terms: e.terms) else { return .unknown }
        guard installed.sameTerms else { return .terms }
        guard e.constant != installed.constant else { return .constant(nil) }
        do throws(SolverError) {
            try solver.setConstant(e.constant, of: h)
        } catch {
            throw _error(error, for: c)
        }
        return .constant(installed.constant)
    }

    /// Sets `c.constant` and (unless `refresh` is false, for a later `_refreshGroup`) updates the solver.
    func _setConstant(_ c: LayoutConstraint, _ value: Double, _ j: inout Journal,
                      refresh: Bool = true) throws(LayoutError) {
        let old = c.constant
        guard old != value else { return }
        c.constant = value
        j.record { c.constant = old }
        if refresh { try _refresh(c, &j) }
    }

    /// Brings several changed constraints up to date as one change. Changed one at a time, constraints that
    /// only hold together (a view's leading and trailing after a direction flip, a width and a height tied to
    /// the root's) can conflict on the way; so the changes are first made in place, one by one, and if one
    /// fails as unsatisfiable they are undone and made again as remove-all, then add-all, which fails only
    /// if the final state cannot hold.
    ///
    /// Before the slow path touches the solver, the final state is checked in a scratch solver, so a change
    /// that cannot hold fails with the solver exactly as it was (not at another solution of an ambiguous
    /// layout) and with the conflicts of the final state.
    func _refreshGroup(_ cs: [LayoutConstraint], _ j: inout Journal) throws(LayoutError) {
        var seen = Set<ObjectIdentifier>()
        let changed = cs.filter { c in
            guard c.isActive, seen.insert(ObjectIdentifier(c)).inserted, let old = c.installedExpression else { return false }
            return _expression(c) != old
        }
        guard !changed.isEmpty else { return }
        var fast = Journal()
        do throws(LayoutError) {
            // The constraints whose terms stay get their constants in one solver call (one walk of what they
            // move and one re-solve, not one each: every gap of a chain of 4,000 views); the others one by one.
            var batch: [(Constraint, Double)] = [], olds: [(Constraint, Double)] = [], owners: [LayoutConstraint] = []
            var rest: [LayoutConstraint] = []
            for c in changed {
                let e = _expression(c)
                guard changed.count > 1, let h = c.solverConstraint,
                      let installed = try? solver.compare(h, terms: e.terms), installed.sameTerms else {
                    rest.append(c)
                    continue
                }
                if e.constant != installed.constant {
                    batch.append((h, e.constant)); olds.append((h, installed.constant)); owners.append(c)
                }
            }
            if !batch.isEmpty {
                do throws(SolverError) { try solver.setConstants(batch) } catch { throw _error(error, for: owners.last!) }
                fast.record { [unowned self] in try? self.solver.setConstants(olds) }
            }
            for c in rest { try _refresh(c, &fast) }
            j.undo += fast.undo
            return
        } catch {
            _undo(fast)
            guard error.kind == .unsatisfiable, changed.count > 1 else { throw error }
        }
        try _checkFinalState(changed)
        for c in changed { _uninstall(c, &j) }
        for c in changed { try _install(c, &j) }
    }

    /// Throws `.unsatisfiable` (naming the conflicts) unless the active required constraints, with the
    /// constraints `changed` at their new expressions, can all hold. Uses a scratch solver.
    func _checkFinalState(_ changed: [LayoutConstraint]) throws(LayoutError) {
        let scratch = Solver()
        var vars: [Variable: Variable] = [:]
        var owner: [Constraint: LayoutConstraint] = [:]
        let changedIDs = Set(changed.map(\.id))
        func mapped(_ e: Expression) -> Expression {
            Expression(e.terms.map { t in
                if let v = vars[t.variable] { return Term(v, t.coefficient) }
                let v = scratch.addVariable()
                vars[t.variable] = v
                return Term(v, t.coefficient)
            }, constant: e.constant)
        }
        for c in allConstraints where c.isActive && c.isRequired && !changedIDs.contains(c.id) {
            guard let e = c.installedExpression,
                  let h = try? scratch.add(mapped(e), c.relation.solverRelation) else { continue }
            owner[h] = c
        }
        for c in changed where c.isRequired {
            do throws(SolverError) {
                owner[try scratch.add(mapped(_expression(c)), c.relation.solverRelation)] = c
            } catch {
                if case .unsatisfiable(let hs) = error {
                    throw _error(.unsatisfiable(conflicts: []), for: c, conflicts: hs.compactMap { owner[$0] })
                }
                throw _error(error, for: c)
            }
        }
    }

    /// Sets `c.priority` (and re-keys an equation), updating the solver.
    func _setPriority(_ c: LayoutConstraint, _ value: Double, _ j: inout Journal) throws(LayoutError) {
        let old = c.priority
        guard old != value else { return }
        let oldKey = c.key
        c.priority = value
        j.record { c.priority = old }
        if c.origin == .equation {
            if byKey[oldKey] === c {
                let heir = _twin(of: c, key: oldKey)
                byKey[oldKey] = heir
                j.record { [unowned self] in self.byKey[oldKey] = c }
            }
            let newKey = c.key
            if byKey[newKey] == nil {
                byKey[newKey] = c
                j.record { [unowned self] in self.byKey[newKey] = nil }
            } else {
                sharedKeys.insert(newKey)   // kept on undo: it only costs a search
            }
        }
        if let h = c.solverConstraint {
            do throws(SolverError) {
                try solver.setPriority(value, of: h)
            } catch {
                throw _error(error, for: c)
            }
            j.record { [unowned self] in try? self.solver.setPriority(old, of: h) }
        }
    }

    /// Another live equation with `key` (a twin: a priority change can give two equations the same key), which
    /// takes over the re-issue entry (`byKey`) `c` leaves, so `xeq` and `eq` still find it. Only equations of
    /// `c`'s first view can share its key, and only keys in `sharedKeys` have had two: O(1) for the rest, else
    /// O(the constraints of that view).
    func _twin(of c: LayoutConstraint, key: ConstraintKey) -> LayoutConstraint? {
        guard sharedKeys.contains(key) else { return nil }
        return byID.mentioning(c.firstView).compactMap { byID[$0] }
            .filter { $0 !== c && $0.origin == .equation && $0.isValid && $0.key == key }
            .min { $0.id < $1.id }
    }

    /// Drops the re-issue entries (`byKey`) of discarded equations in one pass over the table, a twin taking
    /// over where one is live (what `_discard` does a key at a time). For removals of most of a layout: at
    /// 100k views a lookup a constraint missed the caches each time (28% of removing the main container).
    func _dropDiscardedKeys() {
        var kept: [ConstraintKey: LayoutConstraint] = [:]
        for (key, c) in byKey {
            if c.isValid { kept[key] = c } else if let twin = _twin(of: c, key: key) { kept[key] = twin }
        }
        byKey = kept
    }

    /// Registers a new equation constraint (list, key, id).
    func _register(_ c: LayoutConstraint, _ j: inout Journal) {
        let prev = _registerNow(c)
        j.record { [unowned self] in self._unregisterNow(c, previous: prev) }
    }

    /// Registers a new equation constraint without a journal entry; returns the constraint its key named before
    /// (for `_unregisterNow`).
    func _registerNow(_ c: LayoutConstraint) -> LayoutConstraint? {
        let previous = byKey.updateValue(c, forKey: c.key)
        _listNow(c)
        return previous
    }

    /// `_registerNow` but for `byKey`, which the caller has set.
    func _listNow(_ c: LayoutConstraint) {
        userConstraints.append(c)
        byID[c.id] = c
    }

    /// Undoes `_registerNow(c)`, the last registration not yet undone.
    func _unregisterNow(_ c: LayoutConstraint, previous: LayoutConstraint?) {
        userConstraints.removeLast()
        byID[c.id] = nil
        byKey[c.key] = previous
    }

    /// Removes `c` for good: out of the solver and every table; the handle becomes stale. It stays in
    /// `userConstraints`, skipped, until the list is compacted (so undoing this is making it valid again).
    /// With `keepingKey`, the re-issue entry (`byKey`) is left for the caller to drop with many others
    /// (`_dropDiscardedKeys`), and no undo is recorded for it (for journals that do not record).
    func _discard(_ c: LayoutConstraint, _ j: inout Journal, keepingKey: Bool = false) {
        _uninstall(c, &j)
        byID[c.id] = nil
        if c.origin == .equation {
            userConstraints.noteRemoved()
            let key = keepingKey ? nil : c.key
            // One hash of the key for the lookup and the removal.
            if let key, let i = byKey.index(forKey: key), byKey.values[i] === c {
                if let twin = _twin(of: c, key: key) { byKey.values[i] = twin } else { byKey.remove(at: i) }
                if j.isRecording { j.record { [unowned self] in self.byKey[key] = c } }
            }
        }
        c.isValid = false
        if j.isRecording { j.record { [unowned self] in c.isValid = true; self.byID[c.id] = c } }
    }

    // MARK: - Property changes

    /// Refreshes every constraint (user and intrinsic) that mentions a view in `views`, or, with
    /// `directionOf`, every directional constraint whose first view is in `directionOf`.
    func _refreshAll(mentioning viewList: [View], directionOf directionList: [View] = [],
                     _ j: inout Journal) throws(LayoutError) {
        let views = Set(viewList.map(ObjectIdentifier.init)), directionOf = Set(directionList.map(ObjectIdentifier.init))
        let affected = byID.mentioning(anyOf: viewList + directionList).compactMap { byID[$0] }.filter { c in
            guard c.isActive else { return false }
            let touches = views.contains(ObjectIdentifier(c.firstView))
                || c.secondView.map { views.contains(ObjectIdentifier($0)) } ?? false
            let flips = c.isDirectional && directionOf.contains(ObjectIdentifier(c.firstView))
            return touches || flips
        }
        try _refreshGroup(affected, &j)
    }

    func _subtree(_ v: View) -> [View] {
        var out: [View] = []
        var stack = [v]   // no recursion: hierarchies may be deeper than the stack allows
        while let x = stack.popLast() { out.append(x); stack.append(contentsOf: x.subviews) }
        return out
    }

    /// Sets a view's margins by left and right (`absolute`) or by leading and trailing (`directional`).
    func _setMargins(_ v: View, absolute: EdgeInsets?, directional: DirectionalEdgeInsets?) throws(LayoutError) {
        guard absolute?.areLengths ?? true, directional?.areLengths ?? true else {
            let given = absolute.map { "\($0)" } ?? directional.map { "\($0)" } ?? ""
            throw LayoutError(.invalid, "layout margins \(given) of `\(v.name)` must be finite, within ±1e9")
        }
        try _transaction { (j: inout Journal) throws(LayoutError) in
            let old = (v.absoluteMargins, v.directionalLayoutMargins)
            if let absolute { v.absoluteMargins = absolute }
            v.directionalLayoutMargins = directional
            j.record { v.absoluteMargins = old.0; v.directionalLayoutMargins = old.1 }
            try _refreshAll(mentioning: [v], &j)
        }
    }

    /// The views of `v`'s subtree whose margins are directional: a direction change moves their margin edges.
    func _directionalMargins(in v: View) -> [View] {
        var out: [View] = []
        var stack = [v]
        while let x = stack.popLast() {
            if x.directionalLayoutMargins != nil { out.append(x) }
            stack.append(contentsOf: x.subviews)
        }
        return out
    }

    func _setDirection(_ v: View, _ d: LayoutDirection) throws(LayoutError) {
        try _transaction { (j: inout Journal) throws(LayoutError) in
            let old = v.layoutDirection
            v.layoutDirection = d
            j.record { v.layoutDirection = old }
            // The root's direction reaches the guides too (they are the root's children).
            try _refreshAll(mentioning: _directionalMargins(in: v), directionOf: _subtree(v), &j)
            refreshFrame(v)   // its frame relative to the new superview, even if nothing moves
        }
    }

    func _setBaseline(_ v: View, _ offset: Double?, _ first: Double?) throws(LayoutError) {
        guard offset.map(Layout.isLength) ?? true, first.map(Layout.isLength) ?? true else {
            let given = [offset, first].map { $0.map(formatNumber) ?? "nil" }.joined(separator: ", ")
            throw LayoutError(.invalid, "baseline offsets (\(given)) of `\(v.name)` must be finite, within ±1e9")
        }
        try _transaction { (j: inout Journal) throws(LayoutError) in try _setBaseline(v, offset, first, &j) }
    }

    func _setBaseline(_ v: View, _ offset: Double?, _ first: Double?, _ j: inout Journal) throws(LayoutError) {
        let old = (v.baselineOffset, v.firstBaselineOffset)
        guard old != (offset, first) else { return }
        v.baselineOffset = offset
        v.firstBaselineOffset = first
        j.record { v.baselineOffset = old.0; v.firstBaselineOffset = old.1 }
        try _refreshAll(mentioning: [v], &j)
    }

    func _setSuperview(_ v: View, _ parent: View) throws(LayoutError) {
        try _transaction { (j: inout Journal) throws(LayoutError) in try _move(v, to: parent, &j) }
    }

    /// Moves `v` under `parent` (journaled). A view arranged in a stack leaves the arrangement when it leaves
    /// the stack's view, as in UIKit.
    func _move(_ v: View, to parent: View, _ j: inout Journal) throws(LayoutError) {
        guard v.kind == .view else {
            throw LayoutError(.invalid, "the \(v.kind == .root ? "root" : "guide `\(v.name)`") cannot move")
        }
        try checkParent(parent)
        guard !parent.isDescendant(of: v) else {
            throw LayoutError(.cycle, parent === v ? "`\(v.name)` cannot be its own superview"
                              : "`\(parent.name)` is inside `\(v.name)`; moving `\(v.name)` under it would make a cycle")
        }
        guard let oldParent = v.superview, oldParent !== parent else { return }
        guard let i = oldParent.subviews.firstIndex(where: { $0 === v }) else {
            throw LayoutError(.internalError, "`\(v.name)` is missing from its superview's subviews")
        }
        if let s = v.arrangingStack, s.isValid {
            s.detach(v, &j)
            _ = try _rearrange(s, animated: false, &j)
        }
        oldParent.subviews.remove(at: i)
        parent.subviews.append(v)
        v.superview = parent
        let shift = parent.depth + 1 - v.depth
        func shiftDepths(_ k: Int) {
            var stack = [v]
            while let x = stack.popLast() { x.depth += k; stack.append(contentsOf: x.subviews) }
        }
        shiftDepths(shift)
        j.record {
            shiftDepths(-shift)
            parent.subviews.removeLast()
            oldParent.subviews.insert(v, at: i)
            v.superview = oldParent
        }
        try _refreshAll(mentioning: _directionalMargins(in: v), directionOf: _subtree(v), &j)
        refreshFrame(v)   // its frame relative to the new superview, even if nothing moves
    }

    /// The intrinsic-size constraint of `v` for `axis` and `role`, made on first use (not installed).
    func _intrinsicConstraint(_ v: View, _ axis: LayoutAxis, _ role: ContentRole,
                              _ j: inout Journal) -> LayoutConstraint {
        let i = axis.rawValue * 2 + role.rawValue
        let key = ObjectIdentifier(v)
        if let c = intrinsicByView[key]?[i] { return c }
        let spec = Spec(first: v, firstAttribute: axis == .horizontal ? .width : .height,
                        relation: role == .hugging ? .lessOrEqual : .greaterOrEqual, second: nil,
                        secondAttribute: nil, multiplier: 1, divisor: nil,
                        constant: v.intrinsicSize(for: axis) ?? 0,
                        priority: role == .hugging ? v.hugging[axis.rawValue] : v.compression[axis.rawValue])
        let c = makeConstraint(spec, origin: .intrinsic(axis, role))
        intrinsicByView[key, default: [nil, nil, nil, nil]][i] = c
        byID[c.id] = c
        j.record { [unowned self] in self.intrinsicByView[key]?[i] = nil; self.byID[c.id] = nil }
        return c
    }

    func _setIntrinsic(_ v: View, _ axis: LayoutAxis, _ size: Double?, _ j: inout Journal) throws(LayoutError) {
        if let size, !(size.isFinite && size >= 0 && size <= 1e9) {
            throw LayoutError(.invalid, "intrinsic \(axis == .horizontal ? "width" : "height") \(formatNumber(size)) of `\(v.name)` must be finite, 0...1e9")
        }
        let old = v.intrinsicSize(for: axis)
        if axis == .horizontal { v.intrinsicWidth = size } else { v.intrinsicHeight = size }
        j.record { if axis == .horizontal { v.intrinsicWidth = old } else { v.intrinsicHeight = old } }
        let cs = ContentRole.allCases.map { _intrinsicConstraint(v, axis, $0, &j) }
        if let size {
            for c in cs { try _setConstant(c, size, &j, refresh: false) }
            try _refreshGroup(cs, &j)
            for c in cs where !c.isActive { try _install(c, &j) }
        } else {
            for c in cs { _uninstall(c, &j) }
        }
        // Stacks that size their views in proportion to the intrinsic sizes follow (a size taken away too).
        if let s = v.arrangingStack, s.isValid, s.distribution == .fillProportionally, s.axis == axis {
            _ = try _rearrange(s, animated: false, &j)
        }
    }

    /// Sets a content priority and returns the intrinsic constraint it governs.
    @discardableResult
    func _setContentPriority(_ v: View, _ axis: LayoutAxis, _ role: ContentRole, _ p: Double,
                             _ j: inout Journal) throws(LayoutError) -> LayoutConstraint {
        guard LayoutPriority.isValid(p) else {
            throw LayoutError(.invalid, "priority \(formatNumber(p)) is outside 1...1000")
        }
        let a = axis.rawValue
        let old = role == .hugging ? v.hugging[a] : v.compression[a]
        if role == .hugging { v.hugging[a] = p } else { v.compression[a] = p }
        j.record { if role == .hugging { v.hugging[a] = old } else { v.compression[a] = old } }
        let c = _intrinsicConstraint(v, axis, role, &j)
        try _setPriority(c, p, &j)
        return c
    }

    // MARK: - Handle operations

    func _ownedMessage(_ c: LayoutConstraint) -> String {
        switch c.origin {
        case .rootSize: return "`\(c)` is the root size; use setRootSize(width:height:)"
        case .guide: return "`\(c)` places the \(c.firstView.name) guide; use setSafeAreaInsets, setKeyboardHeight or the root's margins"
        case .arrangement(let owner, let rule): return "`\(c)` belongs to \(owner) (\(rule)); change the \(owner.split(separator: " ").first ?? "owner") instead"
        default: return "`\(c)` belongs to the layout"
        }
    }

    func _setConstantByHandle(_ c: LayoutConstraint, _ value: Double) throws(LayoutError) {
        switch c.origin {
        case .equation:
            guard value.isFinite, abs(value) <= 1e12 else {
                throw LayoutError(.invalid, "constant \(formatNumber(value)) must be finite, within ±1e12")
            }
            if try _setConstantInPlace(c, value) { return }
            try _transaction { (j: inout Journal) throws(LayoutError) in try _setConstant(c, value, &j) }
        case .intrinsic(let axis, _):
            try _transaction { (j: inout Journal) throws(LayoutError) in try _setIntrinsic(c.firstView, axis, value, &j) }
        case .rootSize, .guide, .arrangement:
            throw LayoutError(.invalid, _ownedMessage(c))
        }
    }

    /// The usual case of `_setConstantByHandle` (every frame of an animated constant): a top-level call under no
    /// time limit whose solver expression keeps its terms is one solver call, which changes nothing when it
    /// fails, so it needs no transaction (no journal, no undo steps). Returns false, changing nothing, for
    /// every other case (the caller takes the transaction).
    func _setConstantInPlace(_ c: LayoutConstraint, _ value: Double) throws(LayoutError) -> Bool {
        guard callDepth == 0, maxSecondsPerCall == 0 else { return false }
        try checkNotMeasuring()
        let old = c.constant
        if old == value { needsLayout = true; return true }
        c.constant = value
        if let h = c.solverConstraint {
            let refreshed: ConstantRefresh
            do throws(LayoutError) { refreshed = try _refreshConstant(c, h) } catch { c.constant = old; throw error }
            guard case .constant = refreshed else { c.constant = old; return false }
        }
        needsLayout = true
        return true
    }

    func _setPriorityByHandle(_ c: LayoutConstraint, _ value: Double) throws(LayoutError) {
        guard LayoutPriority.isValid(value) else {
            throw LayoutError(.invalid, "priority \(formatNumber(value)) is outside 1...1000")
        }
        switch c.origin {
        case .equation:
            try _transaction { (j: inout Journal) throws(LayoutError) in try _setPriority(c, value, &j) }
        case .intrinsic(let axis, let role):
            _ = try _transaction { (j: inout Journal) throws(LayoutError) in
                try _setContentPriority(c.firstView, axis, role, value, &j)
            }
        case .rootSize, .guide, .arrangement:
            throw LayoutError(.invalid, _ownedMessage(c))
        }
    }

    func _setActiveByHandle(_ c: LayoutConstraint, _ active: Bool) throws(LayoutError) {
        switch c.origin {
        case .equation:
            guard active != c.isActive else { return }
            try _transaction { (j: inout Journal) throws(LayoutError) in
                if active { try _install(c, &j) } else { _uninstall(c, &j) }
            }
        case .intrinsic:
            throw LayoutError(.invalid, "`\(c)` follows \(c.firstView.name)'s intrinsic size; set the size to nil to drop it")
        case .rootSize, .guide, .arrangement:
            throw LayoutError(.invalid, _ownedMessage(c))
        }
    }
}

/// Layout constraints by id, and the ids of those that mention each view, so that a change to one view (margins,
/// baseline, direction, removal) finds its constraints without scanning all of them.
///
/// Each view keeps the ids in a plain list (`View.constraintIDs`): linking appends; unlinking only counts the
/// entry as stale, and the list is compacted when half of it is stale. Ids are never reused, so an entry whose
/// id is still in `all` is a constraint that mentions the view.
struct ConstraintIndex {
    /// By id (ids only grow, and a layout that adds and removes for hours keeps pages only for live ones).
    private var table = SerialTable<LayoutConstraint>()

    /// The live constraints, in increasing id order.
    var all: [LayoutConstraint] { table.elements }

    /// Calls `body` on each live constraint, in increasing id order.
    func forEach(_ body: (LayoutConstraint) throws -> Void) rethrows { try table.forEach(body) }

    /// How many constraints are live.
    var count: Int { table.count }

    /// Pages of the table in use.
    var allocatedPages: Int { table.allocatedPages }

    subscript(id: Int) -> LayoutConstraint? {
        get { table[id] }
        set {
            if let old = table[id] { unlink(old) }
            if let c = newValue { table.insert(c, at: id); link(c) } else { table.remove(at: id) }
        }
    }

    /// The ids of the live constraints whose first or second view is `view`, each once, in increasing order.
    func mentioning(_ view: View) -> [Int] { mentioning(anyOf: [view]) }

    /// The ids of the live constraints whose first or second view is one of `views`, each once, in increasing
    /// order: the views' lists in one array, one sort of integers (a 100k-view subtree: no set, no sort of
    /// constraint objects).
    func mentioning(anyOf views: [View]) -> [Int] {
        var ids: [Int] = []
        ids.reserveCapacity(views.reduce(0) { $0 + $1.constraintIDs.count })
        for v in views { ids += v.constraintIDs }
        ids.sort()
        var kept = 0
        var last = Int.min
        for id in ids where id != last {
            last = id
            if table[id] != nil { ids[kept] = id; kept += 1 }
        }
        ids.removeLast(ids.count - kept)
        return ids
    }

    private mutating func link(_ c: LayoutConstraint) {
        Self.append(c.id, to: c.firstView)
        if let v = c.secondView { Self.append(c.id, to: v) }
    }

    /// A view's first list holds room for the handful of constraints most views have (growing one at a time was
    /// three allocations a view).
    private static func append(_ id: Int, to v: View) {
        if v.constraintIDs.capacity == 0 { v.constraintIDs.reserveCapacity(8) }
        v.constraintIDs.append(id)
    }

    private mutating func unlink(_ c: LayoutConstraint) {
        unlink(c, from: c.firstView)   // (not a loop over `[first, second]`: an array made per removal)
        if let v = c.secondView { unlink(c, from: v) }
    }

    /// Counts `c`'s id in `v`'s list as stale; a list mostly stale is rebuilt from the live ids.
    private mutating func unlink(_ c: LayoutConstraint, from v: View) {
        v.staleConstraintIDs += 1
        if v.staleConstraintIDs > 16, v.staleConstraintIDs * 2 > v.constraintIDs.count {
            v.constraintIDs = mentioning(v).filter { $0 != c.id }
            v.staleConstraintIDs = 0
        }
    }
}
