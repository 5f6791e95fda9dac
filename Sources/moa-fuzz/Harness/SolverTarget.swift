// moa-fuzz target `solver`: the fuzz input is a stream of raw-solver C calls (moa_var_*, moa_solver_*,
// moa_cons_*), with stale, foreign and zero ids, NULL pointers, NaN and huge numbers mixed in.
//
// The harness keeps its own model of the solver (variables, each constraint's terms, constant, relation,
// priority, active state, edit variables) and checks after every step:
//   - the status is one the header allows for these arguments (a NaN is never accepted, a stale id is always
//     MOA_NOTFOUND, an optional constraint never fails as unsatisfiable, ...);
//   - a failed call changed nothing: moa_solver_dump() (variables, constraints, edits, every tableau row and the
//     objective) is byte for byte what it was before;
//   - after moa_solver_update(), every active required constraint holds within a relative tolerance;
//   - reads agree with the model (counts, constants, priorities, active flags, edit flags);
//   - an unsatisfiable report names live, active, required constraints, and (for small well-conditioned sets)
//     is really a minimal conflict: rebuilt in a scratch solver, the set plus the failing constraint cannot
//     hold, and dropping any one member lets it hold.
// The exact checks apply while every number in the system is nice (small integers and halves); once a wild
// (valid but extreme) number went in, only crash-freedom, statuses and the "failure changes nothing" rule are
// checked, and MOA_ERROR (numerical trouble, rolled back) is accepted.

import CMoa

private struct Term {
    var v: moa_var
    var coef: Double
}

private struct Cons {
    var id: moa_cons
    var terms: [Term]
    var constant: Double
    var rel: Int
    var priority: Double
    var active: Bool
}

/// An id argument and what the model says about it.
private enum IdKind { case live(Int), dead, unknown }

private final class SolverModel {
    var s: OpaquePointer
    /// Another solver: its ids are foreign to `s`.
    let other: OpaquePointer
    var foreignVar: moa_var = 0
    var foreignCons: moa_cons = 0
    var vars: [moa_var] = []
    var cons: [Cons] = []
    var edits: [moa_var: Double] = [:]
    /// Ids that must be rejected: freed variables, removed constraints, ids from before a reset.
    var dead: [UInt64] = []
    /// A wild number went into the system since the last reset: exact checks are off.
    var wild = false
    /// The error message of the call under test, read before the dump that checks it (a dump is a call too and
    /// resets the message).
    var lastMessage: String? = nil
    /// The conflict list of the call under test, read before that dump for the same reason (a successful call
    /// empties it).
    var lastConflicts: [moa_cons] = []
    /// The call under test takes a wild number itself: MOA_ERROR (numerical trouble, rolled back) is accepted.
    var callWild = false
    /// A small pivots limit is set: any call that pivots may fail with MOA_LIMIT (and must change nothing).
    var pivotLimited = false

    init() {
        s = moa_solver_new()!
        other = moa_solver_new()!
        _ = moa_var_new(other, "foreign", &foreignVar)
        var t = moa_term(var: foreignVar, coef: 1)
        _ = moa_solver_add(other, &t, 1, -1, MOA_EQ, MOA_REQUIRED, nil, &foreignCons)
    }

    deinit {
        moa_solver_free(s)
        moa_solver_free(other)
    }

    func bury(_ id: UInt64) {
        dead.append(id)
        if dead.count > 64 { dead.removeFirst() }
    }

    func dump() -> String {
        var p: UnsafePointer<CChar>? = nil
        let st = moa_solver_dump(s, &p)
        expect(st == MOA_OK && p != nil, "moa_solver_dump failed: \(st)")
        return String(cString: p!)
    }

    func uses(_ v: moa_var) -> Bool { cons.contains { $0.terms.contains { $0.v == v } } }
}

private func pickVar(_ m: SolverModel, _ inp: inout FuzzInput) -> (moa_var, IdKind) {
    let k = inp.byte()
    if k < 200, !m.vars.isEmpty {
        let i = Int(k) % m.vars.count
        return (m.vars[i], .live(i))
    }
    switch k % 6 {
    case 0: return (0, .dead)
    case 1: return (m.foreignVar, .dead)
    case 2: if let c = m.cons.first { return (c.id, .dead) }  // a constraint id as a variable id
    case 3: if !m.dead.isEmpty { return (m.dead[Int(inp.byte()) % m.dead.count], .dead) }
    case 4:
        let raw = inp.u64()
        if let i = m.vars.firstIndex(of: raw) { return (raw, .live(i)) }
        // libFuzzer's comparison tracing can rebuild a valid id of another kind: then nothing is known.
        if raw == 0 || m.dead.contains(raw) { return (raw, .dead) }
        return (raw, .unknown)
    default: break
    }
    return m.vars.isEmpty ? (0, .dead) : (m.vars[0], .live(0))
}

private func pickCons(_ m: SolverModel, _ inp: inout FuzzInput) -> (moa_cons, IdKind) {
    let k = inp.byte()
    if k < 200, !m.cons.isEmpty {
        let i = Int(k) % m.cons.count
        return (m.cons[i].id, .live(i))
    }
    switch k % 6 {
    case 0: return (0, .dead)
    case 1: return (m.foreignCons, .dead)
    case 2: if let v = m.vars.first { return (v, .dead) }  // a variable id as a constraint id
    case 3: if !m.dead.isEmpty { return (m.dead[Int(inp.byte()) % m.dead.count], .dead) }
    case 4:
        let raw = inp.u64()
        if let i = m.cons.firstIndex(where: { $0.id == raw }) { return (raw, .live(i)) }
        if raw == 0 || m.dead.contains(raw) { return (raw, .dead) }
        return (raw, .unknown)
    default: break
    }
    return m.cons.isEmpty ? (0, .dead) : (m.cons[0].id, .live(0))
}

private func pickPriority(_ inp: inout FuzzInput) -> Num {
    switch inp.below(10) {
    case 0, 1, 2: return Num(value: MOA_REQUIRED, kind: .nice)
    case 3: return Num(value: MOA_HIGH, kind: .nice)
    case 4: return Num(value: MOA_MEDIUM, kind: .nice)
    case 5: return Num(value: MOA_LOW, kind: .nice)
    case 6: return Num(value: Double(1 + inp.below(250) * 4), kind: .nice)
    case 7: return Num(value: [999.9999, 1e-300, 0.5, 1000 - 1e-13][inp.below(4)], kind: .wild)
    default:
        let p = [0, -1, 1000.0001, 1e12, .nan, .infinity, -0.0][inp.below(7)]
        return Num(value: p, kind: .invalid)
    }
}

private func priorityOK(_ p: Double) -> Bool { p > 0 && p <= 1000 }

/// Checks a status against the allowed set; MOA_ERROR is always allowed once the system is wild.
private func allow(_ st: moa_status, _ ok: Set<moa_status>, _ m: SolverModel, _ what: String) {
    if ok.contains(st) || ((m.wild || m.callWild) && st == MOA_ERROR) || (m.pivotLimited && st == MOA_LIMIT) { return }
    violation("\(what): status \(st) (\(String(cString: moa_errstr(st)))) not in \(ok.sorted()); "
        + "message: \(m.lastMessage ?? String(cString: moa_solver_errmsg(m.s)))")
}

/// The solver dump before a call, compared after it when it failed.
private func unchanged(_ m: SolverModel, _ before: String, _ st: moa_status, _ what: String) {
    guard st != MOA_OK else { return }
    m.lastMessage = String(cString: moa_solver_errmsg(m.s))
    m.lastConflicts = conflictList(m)
    let after = m.dump()
    if after != before {
        violation("\(what) failed with \(st) but changed the solver\n--- before\n\(before)--- after\n\(after)")
    }
}

/// The conflict list of the last call (moa_solver_conflicts).
private func conflictList(_ m: SolverModel) -> [moa_cons] {
    var n = 0
    expect(moa_solver_conflicts(m.s, nil, 0, &n) == MOA_OK, "moa_solver_conflicts(count) failed")
    var ids = [moa_cons](repeating: 0, count: n)
    var n2 = 0
    if n > 0 { expect(moa_solver_conflicts(m.s, &ids, n, &n2) == MOA_OK && n2 == n, "moa_solver_conflicts failed") }
    return ids
}

/// `m.lastConflicts` must be live, active, required constraints; when small and nice they, with `batchMembers`
/// (specs of a failed batch that it names), must form a minimal conflict with `failing`.
private func checkConflicts(_ m: SolverModel, failing: Cons, excluding: moa_cons?, wild: Bool = false,
                            batchMembers: [Cons] = []) {
    let ids = m.lastConflicts
    var members: [Cons] = []
    for id in ids {
        guard let c = m.cons.first(where: { $0.id == id }) else { violation("conflict \(id) is not a live constraint") }
        expect(c.active && c.priority == MOA_REQUIRED, "conflict \(id) is not an active required constraint")
        expect(id != excluding, "the conflict list names the failing constraint itself")
        members.append(c)
    }
    expect(Set(ids).count == ids.count, "a conflict is listed twice")
    members += batchMembers
    let named = members.map(\.id)
    // Exact only with nice numbers: a wild failing constraint (a constant of 1e-9) sits at the solver's epsilon.
    guard !m.wild, !wild, members.count <= 8 else { return }
    // All members hold together (they held before the call); with the failing one they cannot.
    expect(scratch(members, failing) == MOA_UNSATISFIABLE,
           "the conflict set \(named) plus the failing constraint is satisfiable in a fresh solver")
    for skip in members.indices {
        var rest = members
        rest.remove(at: skip)
        let st = scratch(rest, failing)
        expect(st == MOA_OK, "conflict set \(named) is not minimal: without \(members[skip].id) it is still \(st)")
    }
}

/// Adds `members` (all must go in) and then `last` (required) to a fresh solver; returns the status of `last`.
private func scratch(_ members: [Cons], _ last: Cons) -> moa_status {
    let t = moa_solver_new()!
    defer { moa_solver_free(t) }
    var map: [moa_var: moa_var] = [:]
    func add(_ c: Cons) -> moa_status {
        var terms: [moa_term] = c.terms.map { term in
            if map[term.v] == nil {
                var v: moa_var = 0
                _ = moa_var_new(t, nil, &v)
                map[term.v] = v
            }
            return moa_term(var: map[term.v]!, coef: term.coef)
        }
        var id: moa_cons = 0
        return moa_solver_add(t, &terms, terms.count, c.constant, moa_relation(rawValue: UInt32(c.rel)),
                              MOA_REQUIRED, nil, &id)
    }
    for c in members {
        let st = add(c)
        expect(st == MOA_OK, "a subset of the required constraints that held does not hold in a fresh solver: \(st)")
    }
    return add(last)
}

/// After moa_solver_update(): values are finite and every active required constraint holds.
private func checkSolution(_ m: SolverModel) {
    guard !m.wild else { return }
    var value: [moa_var: Double] = [:]
    for v in m.vars {
        var x = 0.0
        expect(moa_var_value(m.s, v, &x) == MOA_OK, "moa_var_value failed on a live variable")
        expect(x.isFinite, "variable \(v) has value \(x)")
        value[v] = x
    }
    for c in m.cons where c.active && c.priority == MOA_REQUIRED {
        var sum = c.constant
        var scale = abs(c.constant)
        for t in c.terms {
            sum += t.coef * value[t.v]!
            scale += abs(t.coef * value[t.v]!)
        }
        if !holds(sum, c.rel, scale: scale) {
            violation("required constraint \(c.id) (\(c.terms.map { "\($0.coef)*\($0.v)" }) + \(c.constant) rel \(c.rel))"
                + " does not hold: residual \(sum)\n\(m.dump())")
        }
    }
}

func runSolver(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    var inp = FuzzInput(data, size)
    let m = SolverModel()
    var steps = 0
    while !inp.atEnd && steps < 400 {
        steps += 1
        solverStep(m, &inp)
    }
    moa_solver_update(m.s)
    checkSolution(m)
}

private func solverStep(_ m: SolverModel, _ inp: inout FuzzInput) {
    let before = m.dump()
    m.lastMessage = nil
    m.callWild = false
    let op = inp.below(20)
    switch op {
    case 0, 1:  // moa_var_new
        var v: moa_var = 0
        let st: moa_status
        switch inp.below(4) {
        case 0: st = moa_var_new(m.s, nil, &v)
        case 1: st = withBytesCString((0..<inp.below(12)).map { _ in inp.byte() }) { moa_var_new(m.s, $0, &v) }
        case 2: st = moa_var_new(m.s, "x", nil); allow(st, [MOA_MISUSE], m, "var_new(out NULL)"); unchanged(m, before, st, "var_new"); return
        default: st = moa_var_new(m.s, "v\(m.vars.count)", &v)
        }
        trace("var_new -> \(st) \(v)")
        allow(st, [MOA_OK], m, "var_new")
        expect(v != 0 && !m.vars.contains(v) && !m.dead.contains(v), "var_new returned a used id \(v)")
        m.vars.append(v)

    case 2:  // moa_var_free
        let (v, kind) = pickVar(m, &inp)
        let st = moa_var_free(m.s, v)
        trace("var_free \(v) -> \(st)")
        switch kind {
        case .dead: allow(st, [MOA_NOTFOUND], m, "var_free(stale)")
        case .unknown: allow(st, [MOA_NOTFOUND], m, "var_free(random id)")
        case .live(let i):
            if m.uses(v) || m.edits[v] != nil { allow(st, [MOA_MISUSE], m, "var_free(in use)") }
            else {
                allow(st, [MOA_OK], m, "var_free")
                if st == MOA_OK { m.vars.remove(at: i); m.bury(v) }
            }
        }
        unchanged(m, before, st, "var_free")

    case 3, 4, 5:  // moa_solver_add
        var terms: [moa_term] = []
        var modelTerms: [Term] = []
        var worst = NumClass.nice
        var stale = false
        let n = inp.below(8) == 0 ? inp.below(24) : inp.below(5)
        for _ in 0..<n {
            let (v, kind) = pickVar(m, &inp)
            let c = inp.number()
            worst = max(worst, c.kind)
            if case .live = kind {} else { stale = true }
            terms.append(moa_term(var: v, coef: c.value))
            modelTerms.append(Term(v: v, coef: c.value))
        }
        let k = inp.number()
        worst = max(worst, k.kind)
        let relByte = inp.byte()
        let rel = relByte < 240 ? Int(relByte % 3) : Int(relByte)  // sometimes not a moa_relation
        let p = pickPriority(&inp)
        m.callWild = worst != .nice || p.kind != .nice
        let misuse = inp.below(16)
        var id: moa_cons = 0
        let st: moa_status
        let relation = moa_relation(rawValue: UInt32(rel))
        switch misuse {
        case 0: st = moa_solver_add(m.s, nil, max(n, 1), k.value, relation, p.value, nil, &id)
        case 1: st = moa_solver_add(m.s, terms, n, k.value, relation, p.value, nil, nil)
        case 2:  // a count the header forbids: must be refused before the terms are read
            st = terms.withUnsafeBufferPointer { moa_solver_add(m.s, $0.baseAddress, (1 << 24) + 1, k.value, relation, p.value, nil, &id) }
        default:
            st = withBytesCString((0..<inp.below(6)).map { _ in inp.byte() }) { tag in
                terms.withUnsafeBufferPointer { moa_solver_add(m.s, n == 0 ? nil : $0.baseAddress, n, k.value, relation, p.value, tag, &id) }
            }
        }
        trace("add \(modelTerms.map { "\($0.coef)*\($0.v)" }) + \(k.value) rel \(rel) @\(p.value) misuse \(misuse) -> \(st) \(id)")
        unchanged(m, before, st, "add")
        if misuse == 0 || misuse == 1 { allow(st, [MOA_MISUSE], m, "add(NULL)"); return }
        let badArgs = worst == .invalid || p.kind == .invalid || rel > 2 || misuse == 2
        if badArgs {
            allow(st, stale ? [MOA_INVALID, MOA_NOTFOUND] : [MOA_INVALID], m, "add(invalid arguments)")
            return
        }
        
        if stale {
            allow(st, [MOA_NOTFOUND], m, "add(stale variable)")
            return
        }
        let c = Cons(id: id, terms: modelTerms, constant: k.value, rel: rel, priority: p.value, active: true)
        if p.value == MOA_REQUIRED { allow(st, [MOA_OK, MOA_UNSATISFIABLE], m, "add(required)") }
        else { allow(st, [MOA_OK], m, "add(optional)") }
        if st == MOA_OK {
            expect(id != 0 && !m.cons.contains { $0.id == id } && !m.dead.contains(id), "add returned a used id \(id)")
            if worst != .nice || p.kind != .nice { m.wild = true }
            m.cons.append(c)
        } else if st == MOA_UNSATISFIABLE {
            checkConflicts(m, failing: c, excluding: nil, wild: worst != .nice || p.kind != .nice)
        }

    case 6:  // moa_cons_remove
        let (c, kind) = pickCons(m, &inp)
        let st = moa_cons_remove(m.s, c)
        trace("remove \(c) -> \(st)")
        unchanged(m, before, st, "remove")
        if case .live(let i) = kind {
            allow(st, [MOA_OK], m, "remove")
            if st == MOA_OK { m.cons.remove(at: i); m.bury(c) }
        } else { allow(st, [MOA_NOTFOUND], m, "remove(stale)") }

    case 7:  // moa_cons_set_active
        let (c, kind) = pickCons(m, &inp)
        let on = inp.bool()
        let st = moa_cons_set_active(m.s, c, on ? Int32(inp.byte()) | 1 : 0)
        trace("set_active \(c) \(on) -> \(st)")
        unchanged(m, before, st, "set_active")
        guard case .live(let i) = kind else { allow(st, [MOA_NOTFOUND], m, "set_active(stale)"); return }
        let r = m.cons[i]
        if on == r.active { allow(st, [on ? MOA_DUPLICATE : MOA_MISUSE], m, "set_active(same state)"); return }
        allow(st, on && r.priority == MOA_REQUIRED ? [MOA_OK, MOA_UNSATISFIABLE] : [MOA_OK], m, "set_active")
        if st == MOA_OK { m.cons[i].active = on }
        if st == MOA_UNSATISFIABLE { checkConflicts(m, failing: r, excluding: c) }

    case 8:  // moa_cons_set_constant
        let (c, kind) = pickCons(m, &inp)
        let k = inp.number()
        m.callWild = k.kind != .nice
        let st = moa_cons_set_constant(m.s, c, k.value)
        trace("set_constant \(c) \(k.value) -> \(st)")
        unchanged(m, before, st, "set_constant")
        guard case .live(let i) = kind else { allow(st, k.kind == .invalid ? [MOA_NOTFOUND, MOA_INVALID] : [MOA_NOTFOUND], m, "set_constant(stale)"); return }
        if k.kind == .invalid { allow(st, [MOA_INVALID], m, "set_constant(invalid)"); return }
        let r = m.cons[i]
        allow(st, r.active && r.priority == MOA_REQUIRED ? [MOA_OK, MOA_UNSATISFIABLE] : [MOA_OK], m, "set_constant")
        if st == MOA_OK {
            m.cons[i].constant = k.value
            if k.kind != .nice { m.wild = true }
        }
        if st == MOA_UNSATISFIABLE {
            var failing = r
            failing.constant = k.value
            checkConflicts(m, failing: failing, excluding: c, wild: k.kind != .nice)
        }

    case 9:  // moa_cons_set_priority
        let (c, kind) = pickCons(m, &inp)
        let p = pickPriority(&inp)
        m.callWild = p.kind != .nice
        let st = moa_cons_set_priority(m.s, c, p.value)
        trace("set_priority \(c) \(p.value) -> \(st)")
        unchanged(m, before, st, "set_priority")
        guard case .live(let i) = kind else { allow(st, p.kind == .invalid ? [MOA_NOTFOUND, MOA_INVALID] : [MOA_NOTFOUND], m, "set_priority(stale)"); return }
        if !priorityOK(p.value) { allow(st, [MOA_INVALID], m, "set_priority(invalid)"); return }
        let r = m.cons[i]
        let becomesRequired = r.active && p.value == MOA_REQUIRED && r.priority != MOA_REQUIRED
        allow(st, becomesRequired ? [MOA_OK, MOA_UNSATISFIABLE] : [MOA_OK], m, "set_priority")
        if st == MOA_OK {
            m.cons[i].priority = p.value
            if p.kind != .nice { m.wild = true }
        }
        if st == MOA_UNSATISFIABLE { checkConflicts(m, failing: r, excluding: c, wild: p.kind != .nice) }

    case 10:  // moa_cons_set_weight
        let (c, kind) = pickCons(m, &inp)
        let w = inp.number()
        m.callWild = !(w.value >= 0.5 && w.value <= 128)
        let st = moa_cons_set_weight(m.s, c, w.value)
        trace("set_weight \(c) \(w.value) -> \(st)")
        unchanged(m, before, st, "set_weight")
        // The header promises (0, 1e12]; the solver takes [1e-6, 1e6] (Tolerance.minWeight/maxWeight) and refuses
        // the rest as MOA_INVALID. Between the two either answer passes; outside (0, 1e12] it must be refused.
        let valid = w.value > 0 && w.value <= 1e12
        let sure = w.value >= 1e-6 && w.value <= 1e6
        guard case .live = kind else { allow(st, valid ? [MOA_NOTFOUND] : [MOA_NOTFOUND, MOA_INVALID], m, "set_weight(stale)"); return }
        allow(st, sure ? [MOA_OK] : valid ? [MOA_OK, MOA_INVALID] : [MOA_INVALID], m, "set_weight(\(w.value))")
        if st == MOA_OK && !(w.value >= 0.5 && w.value <= 128) { m.wild = true }

    case 11:  // moa_solver_add_edit
        let (v, kind) = pickVar(m, &inp)
        let p = pickPriority(&inp)
        m.callWild = p.kind != .nice
        let st = moa_solver_add_edit(m.s, v, p.value)
        trace("add_edit \(v) @\(p.value) -> \(st)")
        unchanged(m, before, st, "add_edit")
        let valid = p.value > 0 && p.value < 1000
        guard case .live = kind else { allow(st, valid ? [MOA_NOTFOUND] : [MOA_NOTFOUND, MOA_INVALID], m, "add_edit(stale)"); return }
        if m.edits[v] != nil { allow(st, valid ? [MOA_DUPLICATE] : [MOA_DUPLICATE, MOA_INVALID], m, "add_edit(again)"); return }
        allow(st, valid ? [MOA_OK] : [MOA_INVALID], m, "add_edit")
        if st == MOA_OK { m.edits[v] = 0 }

    case 12:  // moa_solver_remove_edit
        let (v, _) = pickVar(m, &inp)
        let st = moa_solver_remove_edit(m.s, v)
        trace("remove_edit \(v) -> \(st)")
        unchanged(m, before, st, "remove_edit")
        allow(st, m.edits[v] != nil ? [MOA_OK] : [MOA_NOTFOUND], m, "remove_edit")
        if st == MOA_OK { m.edits[v] = nil }

    case 13, 14:  // moa_solver_suggest
        let (v, _) = pickVar(m, &inp)
        let x = inp.number()
        m.callWild = x.kind != .nice
        let st = moa_solver_suggest(m.s, v, x.value)
        trace("suggest \(v) \(x.value) -> \(st)")
        unchanged(m, before, st, "suggest")
        if m.edits[v] == nil { allow(st, x.kind == .invalid ? [MOA_NOTFOUND, MOA_INVALID] : [MOA_NOTFOUND], m, "suggest(not an edit)"); return }
        allow(st, x.kind == .invalid ? [MOA_INVALID] : [MOA_OK], m, "suggest")
        if st == MOA_OK {
            m.edits[v] = x.value
            // Values beyond 1e9 make the residuals of the nice constraints large: keep the check meaningful.
            if x.kind != .nice { m.wild = true }
        }

    case 15, 16:  // moa_solver_update, then the solution check
        let st = moa_solver_update(m.s)
        trace("update -> \(st)")
        allow(st, [MOA_OK], m, "update")
        checkSolution(m)

    case 17:  // reads: they must agree with the model and change nothing
        var nv = 0, nc = 0
        allow(moa_solver_counts(m.s, &nv, &nc), [MOA_OK], m, "counts")
        expect(nv == m.vars.count && nc == m.cons.count, "counts \(nv)/\(nc), model \(m.vars.count)/\(m.cons.count)")
        for c in m.cons {
            var k = 0.0, p = 0.0
            var a: Int32 = -1
            expect(moa_cons_constant(m.s, c.id, &k) == MOA_OK && k == c.constant, "constant of \(c.id): \(k) vs \(c.constant)")
            expect(moa_cons_priority(m.s, c.id, &p) == MOA_OK && p == c.priority, "priority of \(c.id): \(p) vs \(c.priority)")
            expect(moa_cons_is_active(m.s, c.id, &a) == MOA_OK && (a != 0) == c.active, "active of \(c.id)")
            var text: UnsafePointer<CChar>? = nil
            expect(moa_cons_describe(m.s, c.id, &text) == MOA_OK && text != nil, "describe of \(c.id)")
            expect(moa_cons_tag(m.s, c.id, &text) == MOA_OK && text != nil, "tag of \(c.id)")
        }
        for v in m.vars {
            var e: Int32 = -1
            expect(moa_solver_has_edit(m.s, v, &e) == MOA_OK && (e != 0) == (m.edits[v] != nil), "has_edit of \(v)")
            var name: UnsafePointer<CChar>? = nil
            expect(moa_var_name(m.s, v, &name) == MOA_OK && name != nil, "var_name of \(v)")
        }
        for id in m.dead.suffix(4) + [0, m.foreignVar, m.foreignCons] {
            var x = 0.0
            expect(moa_var_value(m.s, id, &x) == MOA_NOTFOUND, "var_value accepted a stale id \(id)")
            expect(moa_cons_constant(m.s, id, &x) == MOA_NOTFOUND, "cons_constant accepted a stale id \(id)")
        }
        expect(m.dump() == before, "reads changed the solver")

    case 18:  // rename a variable (UTF-8 repair), or a NULL solver everywhere
        if inp.bool() {
            let (v, kind) = pickVar(m, &inp)
            let st = withBytesCString((0..<inp.below(8)).map { _ in inp.byte() }) { moa_var_set_name(m.s, v, $0) }
            if case .live = kind { allow(st, [MOA_OK], m, "set_name") } else { allow(st, [MOA_NOTFOUND], m, "set_name(stale)") }
            unchanged(m, before, st, "set_name")
        } else {
            var id: UInt64 = 0
            expect(moa_var_new(nil, nil, &id) == MOA_MISUSE && moa_solver_update(nil) == MOA_MISUSE
                   && moa_cons_remove(nil, 1) == MOA_MISUSE && moa_solver_dump(nil, nil) == MOA_MISUSE,
                   "a NULL solver was not MOA_MISUSE")
            moa_solver_free(nil)
        }

    default:  // a pivots limit, the default one, reset (limits kept), or (rarely) a new solver (default limits)
        switch inp.below(8) {
        case 0:
            let n = Double(1 + inp.below(6))
            allow(moa_solver_set_limit(m.s, MOA_LIMIT_PIVOTS, n), [MOA_OK], m, "set_limit(pivots)")
            m.pivotLimited = true
            trace("pivots limit \(n)")
            return
        case 1:
            allow(moa_solver_set_limit(m.s, MOA_LIMIT_PIVOTS, 10_000_000), [MOA_OK], m, "set_limit(pivots, default)")
            m.pivotLimited = false
            return
        case 2: break
        case 3, 4: addMany(m, &inp, before); return
        default: return
        }
        if inp.bool() {
            allow(moa_solver_reset(m.s), [MOA_OK], m, "reset")
        } else {
            moa_solver_free(m.s)
            m.s = moa_solver_new()!
            m.pivotLimited = false
        }
        trace("reset")
        for v in m.vars { m.bury(v) }
        for c in m.cons { m.bury(c.id) }
        m.vars = []
        m.cons = []
        m.edits = [:]
        m.wild = false
    }
}

/// moa_solver_add_many with up to six specs made as `add`'s are (stale ids, NaN, bad relations, priorities and
/// weights among them). A failure must change nothing (the dump), name a spec that is bad or a required one that
/// conflicts, and a conflict must be minimal across the solver's constraints and the batch's
/// (moa_solver_batch_conflicts); a success adds every spec.
private func addMany(_ m: SolverModel, _ inp: inout FuzzInput, _ before: String) {
    let n = inp.below(7)
    var lists: [[moa_term]] = []
    var model: [Cons] = []
    var bad: [Bool] = []          // refused by the arguments' checks: a number, relation, priority, weight or id
    var weights: [Double] = []
    var callWild = false
    for _ in 0..<n {
        var terms: [moa_term] = []
        var worst = NumClass.nice
        var stale = false
        // Mostly good specs (one bad spec fails the batch): live variables, small numbers, valid choices, with
        // one draw in eight from the hostile pickers.
        func number() -> Num { inp.below(8) == 0 ? inp.number() : Num(value: Double(inp.below(21) - 10), kind: .nice) }
        for _ in 0..<inp.below(4) {
            let (v, kind) = inp.below(8) == 0 || m.vars.isEmpty ? pickVar(m, &inp)
                : (m.vars[inp.below(m.vars.count)], IdKind.live(0))
            let c = number()
            worst = max(worst, c.kind)
            if case .live = kind {} else { stale = true }
            terms.append(moa_term(var: v, coef: c.value))
        }
        let k = number()
        worst = max(worst, k.kind)
        let relByte = inp.byte()
        let rel = relByte < 250 ? Int(relByte % 3) : Int(relByte)
        let p = inp.below(8) == 0 ? pickPriority(&inp)
            : Num(value: [MOA_REQUIRED, MOA_REQUIRED, MOA_REQUIRED, MOA_LOW, MOA_MEDIUM][inp.below(5)], kind: .nice)
        let w = inp.below(16) == 0 ? [-1, .nan, 1e7, 1e-9][inp.below(4)] : [0.0, 1, 2, 0.5][inp.below(4)]
        weights.append(w)
        bad.append(worst == .invalid || p.kind == .invalid || rel > 2 || stale || !(w == 0 || (w >= 1e-6 && w <= 1e6)))
        callWild = callWild || worst == .wild || p.kind == .wild
        lists.append(terms)
        model.append(Cons(id: 0, terms: terms.map { Term(v: $0.var, coef: $0.coef) }, constant: k.value, rel: rel,
                          priority: p.value, active: true))
    }
    m.callWild = callWild
    let total = lists.reduce(0) { $0 + $1.count }
    let flat = UnsafeMutableBufferPointer<moa_term>.allocate(capacity: max(total, 1))
    defer { flat.deallocate() }
    var specs: [moa_cons_spec] = []
    var at = 0
    for (i, terms) in lists.enumerated() {
        for (j, t) in terms.enumerated() { flat[at + j] = t }
        specs.append(moa_cons_spec(terms: terms.isEmpty ? nil : UnsafePointer(flat.baseAddress! + at),
                                   nterms: terms.count, constant: model[i].constant, priority: model[i].priority,
                                   weight: weights[i], tag: nil, rel: moa_relation(rawValue: UInt32(model[i].rel))))
        at += terms.count
    }
    var ids = [moa_cons](repeating: 0, count: max(n, 1))
    var failed = 12345
    let nullSpecs = inp.below(16) == 0
    let st = nullSpecs ? moa_solver_add_many(m.s, nil, max(n, 1), &ids, &failed)
                       : moa_solver_add_many(m.s, specs, n, &ids, &failed)
    trace("add_many \(model.map { "\($0.terms.map { "\($0.coef)*\($0.v)" }) + \($0.constant) rel \($0.rel) @\($0.priority)" }) weights \(weights) null \(nullSpecs) -> \(st) failed \(failed) ids \(ids)")
    var batchConflicts: [Int] = []
    if st == MOA_UNSATISFIABLE {
        var count = 0
        expect(moa_solver_batch_conflicts(m.s, nil, 0, &count) == MOA_OK, "moa_solver_batch_conflicts(count) failed")
        batchConflicts = [Int](repeating: 0, count: count)
        var count2 = 0
        if count > 0 {
            expect(moa_solver_batch_conflicts(m.s, &batchConflicts, count, &count2) == MOA_OK && count2 == count,
                   "moa_solver_batch_conflicts failed")
        }
    }
    unchanged(m, before, st, "add_many")
    if nullSpecs {
        allow(st, [MOA_MISUSE], m, "add_many(NULL specs)")
        expect(failed == max(n, 1), "add_many(NULL specs): failed is \(failed), not n")
        return
    }
    if st == MOA_OK {
        expect(!bad.contains(true), "add_many accepted a bad spec")
        expect(failed == 12345, "add_many wrote *failed on success")
        for i in 0..<n {
            expect(ids[i] != 0 && !m.cons.contains { $0.id == ids[i] } && !m.dead.contains(ids[i])
                   && !ids[..<i].contains(ids[i]), "add_many returned a used id \(ids[i])")
            var c = model[i]
            c.id = ids[i]
            m.cons.append(c)
        }
        if callWild { m.wild = true }
        return
    }
    guard n > 0 else { return allow(st, [MOA_OK], m, "add_many(empty)") }
    expect(failed < n, "add_many failed with \(st) naming spec \(failed) of \(n)")
    guard failed < n else { return }
    if bad[failed] {
        allow(st, [MOA_INVALID, MOA_NOTFOUND], m, "add_many(bad spec \(failed))")
        return
    }
    allow(st, model[failed].priority == MOA_REQUIRED ? [MOA_UNSATISFIABLE] : [], m, "add_many(spec \(failed))")
    guard st == MOA_UNSATISFIABLE else { return }
    expect(batchConflicts.allSatisfy { $0 < failed && !bad[$0] && model[$0].priority == MOA_REQUIRED },
           "add_many's batch conflicts \(batchConflicts) name specs that are not earlier required ones")
    var members: [Cons] = []
    for i in batchConflicts {
        var c = model[i]
        c.id = UInt64(i) | 1 << 62   // not an id of the solver: told apart from the solver's in messages only
        members.append(c)
    }
    checkConflicts(m, failing: model[failed], excluding: nil, wild: callWild, batchMembers: members)
}
