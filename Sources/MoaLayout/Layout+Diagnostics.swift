// Moa — what a solved layout can tell about itself: optional constraints given up, and ambiguity.

import MoaSolver

/// An optional constraint the solver could not satisfy, and by how much.
public struct ViolatedConstraint: CustomStringConvertible {
    /// The constraint given up (partly or fully).
    public let constraint: LayoutConstraint
    /// How far it is off, in points: `|lhs - rhs|` for `==`, the amount on the wrong side for `<=`/`>=`.
    public let amount: Double

    /// `` `a.width == 100 @ 250` (line 3) is off by 20 ``.
    public var description: String { "\(constraint.located) is off by \(formatNumber(amount))" }
}

/// A view variable that the constraints do not fix: other values would satisfy them equally well.
public struct Ambiguity: CustomStringConvertible {
    /// The view (or guide) whose variable is free.
    public let view: View
    /// The free variable.
    public let variable: LayoutVariable

    /// `` `label`: horizontal position (minX) is not fixed by any constraint ``.
    public var description: String {
        "`\(view.name)`: \(variable.meaning) (\(variable)) is not fixed by any constraint"
    }
}

extension Layout {
    /// The value of `e` at the solver's current solution.
    func _evaluate(_ e: Expression) -> Double {
        var v = e.constant
        for t in e.terms { v += t.coefficient * ((try? solver.value(of: t.variable)) ?? 0) }
        return v
    }

    /// The optional constraints the solver had to give up (fully or partly), with how far each is off, highest
    /// priority first (then by id). Evaluated from the solved values, so it is exact whatever the solver's
    /// internal state; amounts under 1e-7 count as satisfied.
    ///
    /// - Complexity: O(constraints × terms).
    public func violatedConstraints() -> [ViolatedConstraint] {
        guard !isReportingProgressInsideSolver else { return [] }   // (the solver is mid-change)
        solver.updateVariables()
        var out: [ViolatedConstraint] = []
        byID.forEach { c in
            guard c.isActive && !c.isRequired, let e = c.installedExpression else { return }
            let v = _evaluate(e)
            let off: Double
            switch c.relation {
            case .equal: off = abs(v)
            case .lessOrEqual: off = max(0, v)
            case .greaterOrEqual: off = max(0, -v)
            }
            if off > 1e-7 { out.append(ViolatedConstraint(constraint: c, amount: off)) }
        }
        return out.sorted { $0.constraint.priority != $1.constraint.priority
            ? $0.constraint.priority > $1.constraint.priority : $0.constraint.id < $1.constraint.id }
    }

    /// The view variables (`minX`, `minY`, `width`, `height`) that the active constraints do not fix, in view
    /// order: Auto Layout's `hasAmbiguousLayout`, with the culprits named.
    ///
    /// **Method.** Probes run on the layout's own solver inside `Solver.trial`, which puts it back exactly as it
    /// was (no copy of the layout is built). A *probe* of an expression `z` adds `z` as an edit variable at
    /// priority 0.001 — below every layout priority (which are at least 1) — and asks it to move by +1, then by
    /// -1. Priorities are strict, so the probe can only move `z` within the set of solutions that are optimal for
    /// every real priority level; `z` moves if and only if it is not constant on that set. For one variable `x`
    /// that is exactly "`x` is not fixed by the constraints" (required and optional, as Auto Layout counts them).
    ///
    /// Probing every variable alone would cost one re-solve each, so variables are tested in groups: the probe is
    /// the weighted sum `z = sum(w_i * x_i)` of a group with fixed pseudo-random weights in [1, 2). If every
    /// variable of the group is fixed, `z` is fixed; if `z` moves, some variable of the group is free, and the
    /// group is split in halves and each half tested again, down to single variables, which are tested exactly.
    /// So every variable reported is free (a single-variable probe moved it); a free variable is missed only if
    /// the weights cancel exactly along every free direction of its group, which the irrational-looking weights
    /// against layout coefficients (±1, 1/2, multipliers) do not do in practice. A move under 1e-7 counts as none.
    ///
    /// Variables that no active constraint mentions are free without a probe, and so are those that the solver
    /// saw move along a costless direction of its optimal tableau (`Solver.freeDirections`: one symbol moved
    /// within the constraints without changing any priority level); only the variables such a direction may
    /// reach but was not seen to move are probed.
    ///
    /// - Complexity: O(1 + a log V) probes for `a` free variables among `V` that no costless direction was seen
    ///   to move (one for a layout without ambiguity); a probe re-solves incrementally; the trial copies each of
    ///   the solver's arrays once. The directions cost what depends on each costless symbol (bounded).
    public func ambiguities() -> [Ambiguity] {
        guard !isReportingProgressInsideSolver else { return [] }   // (the solver is mid-change)
        let active = allConstraints.filter { $0.isActive && $0.solverConstraint != nil }
        // A variable that no active constraint mentions is free without a probe (a view with no constraints).
        var mentioned = [Bool](repeating: false, count: viewByVariable.count)
        for c in active { for t in c.installedExpression!.terms { mentioned[t.variable.index] = true } }
        // Of the others, only those on a direction with no objective cost can move: the rest are not probed, nor
        // are those that the solver saw such a direction move.
        solver.updateVariables()
        enum Movability: UInt8 { case fixed, moved, maybe }
        var movable = [Movability](repeating: .fixed, count: viewByVariable.count)
        let directions = solver.freeDirections()
        for x in directions.moved where x.index < movable.count { movable[x.index] = .moved }
        for x in directions.maybe where x.index < movable.count { movable[x.index] = .maybe }
        var probes: [(view: View, index: Int, variable: Variable)] = []
        var free: [(view: View, index: Int)] = []
        for v in allViews.all where v.isValid {
            for (i, x) in v.variables.enumerated() {
                if !mentioned[x.index] {
                    free.append((v, i))
                } else {
                    switch movable[x.index] {
                    case .fixed: break
                    case .moved: free.append((v, i))
                    case .maybe: probes.append((v, i, x))
                    }
                }
            }
        }
        // Fixed pseudo-random weights in [1, 2) (a 64-bit LCG), so reports are reproducible.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let weights: [Double] = probes.map { _ in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 1 + Double(seed >> 11) / Double(1 << 53)
        }

        /// Whether the weighted sum of the variables at `group` can move. The probe takes itself out again; the
        /// trial around all probes puts the solver back exactly.
        func moves(_ group: ArraySlice<Int>) -> Bool {
            var z = probes[group.first!].variable
            var sum: Constraint?
            if group.count > 1 {
                z = solver.addVariable(name: "probe")
                var e = Expression(z)
                for i in group { e.terms.append(Term(probes[i].variable, -weights[i])) }
                sum = try? solver.add(e, .equal)
            }
            defer {
                if let sum { try? solver.remove(sum) }
                if group.count > 1 { try? solver.removeVariable(z) }
            }
            guard (try? solver.addEditVariable(z, priority: 0.001)) != nil else { return false }
            defer { try? solver.removeEditVariable(z) }
            solver.updateVariables()
            let z0 = (try? solver.value(of: z)) ?? 0
            for delta in [1.0, -1.0] {
                try? solver.suggestValue(z0 + delta, for: z)
                solver.updateVariables()
                if abs(((try? solver.value(of: z)) ?? z0) - z0) > 1e-7 { return true }
            }
            return false
        }

        var probed: [Int] = []
        func search(_ group: ArraySlice<Int>) {
            guard !group.isEmpty, moves(group) else { return }
            if group.count == 1 {
                probed.append(group.first!)
                return
            }
            let mid = group.startIndex + group.count / 2
            search(group[group.startIndex..<mid])
            search(group[mid...])
        }
        // The optimum first, outside the trial, so that it is kept (a deferred optimisation is done once).
        solver.updateVariables()
        solver.trial { _ in search(Array(probes.indices)[...]) }
        free += probed.map { (probes[$0].view, probes[$0].index) }
        // In view order (creation), then minX, minY, width, height.
        free.sort { $0.view.serial != $1.view.serial ? $0.view.serial < $1.view.serial : $0.index < $1.index }
        return free.compactMap { f in LayoutVariable(rawValue: f.index).map { Ambiguity(view: f.view, variable: $0) } }
    }

    /// True when some view variable is not fixed by the constraints (see `ambiguities()`).
    public var hasAmbiguousLayout: Bool { !ambiguities().isEmpty }
}
