// Moa — C ABI: the raw solver (lifecycle, variables, constraints, edit variables, inspection).
//
// Each export: unbox (MOA_MISUSE on NULL), validate what Swift cannot take as is, call the solver, record the
// outcome. Parameter types are what the Swift importer makes of Include/moa.h (size_t → Int, int → Int32,
// enum moa_relation → UInt32, const moa_term * → raw pointer); MoaCTests checks them with `same(_:_:)`.

import MoaSolver

// MARK: - Errors

@_cdecl("moa_solver_errmsg")
public func moa_solver_errmsg(_ s: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let s else { return cString("NULL solver handle (was moa_solver_new() called, and did it succeed?)") }
    return SolverBox.from(s).record.text
}

@_cdecl("moa_solver_conflicts")
public func moa_solver_conflicts(
    _ s: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let s else { return Status.misuse }
    return copyConflicts(SolverBox.from(s).record, out, cap, count)
}

// MARK: - Lifecycle

@_cdecl("moa_solver_new")
public func moa_solver_new() -> OpaquePointer? {
    OpaquePointer(Unmanaged.passRetained(SolverBox()).toOpaque())
}

@_cdecl("moa_solver_free")
public func moa_solver_free(_ s: OpaquePointer?) {
    guard let s else { return }
    let box = SolverBox.from(s)
    guard !box.freePending else { return }
    if box.depth > 0 {
        box.freePending = true   // from the progress function: freed when the call returns
        return
    }
    Unmanaged<SolverBox>.fromOpaque(UnsafeRawPointer(s)).release()
}

@_cdecl("moa_solver_reset")
public func moa_solver_reset(_ s: OpaquePointer?) -> Int32 {
    withSolver(s) { box in box.reset() }
}

// MARK: - Variables

@_cdecl("moa_var_new")
public func moa_var_new(_ s: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt64>?)
    -> Int32
{
    withSolver(s) { box in
        try output(out) { box.id(box.solver.addVariable(name: string(name))) }
    }
}

@_cdecl("moa_var_free")
public func moa_var_free(_ s: OpaquePointer?, _ v: UInt64) -> Int32 {
    withSolver(s) { box in try box.solver.removeVariable(box.variable(v)) }
}

@_cdecl("moa_var_name")
public func moa_var_name(_ s: OpaquePointer?, _ v: UInt64, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?)
    -> Int32
{
    withSolver(s) { box in
        try output(out) { try box.text.keep(box.solver.name(of: box.variable(v))) }
    }
}

@_cdecl("moa_var_set_name")
public func moa_var_set_name(_ s: OpaquePointer?, _ v: UInt64, _ name: UnsafePointer<CChar>?) -> Int32 {
    withSolver(s) { box in try box.solver.setName(string(name), of: box.variable(v)) }
}

@_cdecl("moa_var_value")
public func moa_var_value(_ s: OpaquePointer?, _ v: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withSolver(s) { box in
        try output(out) { try box.solver.value(of: box.variable(v)) }
    }
}

@_cdecl("moa_solver_values")
public func moa_solver_values(
    _ s: OpaquePointer?, _ vars: UnsafePointer<UInt64>?, _ n: Int, _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    withSolver(s) { box in
        guard n >= 0 else { throw BoundaryFailure.invalid("n does not fit in a ptrdiff_t") }
        guard n == 0 || (vars != nil && out != nil) else { throw BoundaryFailure.misuse("vars or out is NULL but n is \(n)") }
        guard n > 0 else { return }
        var handles: [Variable] = []
        // Not `n` at once: a huge n with a bad first id must fail on the id, not abort on the allocation.
        handles.reserveCapacity(min(n, 1 << 16))
        for i in 0 ..< n { handles.append(try box.variable(vars![i])) }
        // Every handle is checked before anything is written.
        try handles.withUnsafeBufferPointer { (handles) throws(SolverError) in
            try box.solver.values(of: handles, into: UnsafeMutableBufferPointer(start: out!, count: n))
        }
    }
}

// MARK: - Constraints

@_cdecl("moa_solver_add")
public func moa_solver_add(
    _ s: OpaquePointer?, _ terms: UnsafeRawPointer?, _ nterms: Int, _ constant: Double, _ rel: UInt32,
    _ priority: Double, _ tag: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withSolver(s) { box in
        let out = try required(out, "out")
        let e = try expression(box, terms, nterms, constant)
        let c = try box.solver.add(e, relation(rel), priority: priority, tag: string(tag))
        out.pointee = box.id(c)
    }
}

@_cdecl("moa_solver_add_many")
public func moa_solver_add_many(
    _ s: OpaquePointer?, _ specs: UnsafeRawPointer?, _ n: Int, _ out: UnsafeMutablePointer<UInt64>?,
    _ failed: UnsafeMutablePointer<Int>?
) -> Int32 {
    var at = n
    let status = withSolver(s) { box in
        guard n >= 0, n <= maxTerms else { throw SolverError.invalidArgument("n must be at most \(maxTerms)") }
        guard n > 0 else { return }
        guard let specs else { throw BoundaryFailure.misuse("specs is NULL but n is \(n)") }
        guard let out else { throw BoundaryFailure.misuse("out is NULL but n is \(n)") }
        let batch = try constraintSpecs(box, specs, n, at: &at)
        do throws(BatchError) {
            let made = try box.solver.add(batch)
            for (i, c) in made.enumerated() { out[i] = box.id(c) }
        } catch {
            at = error.index
            throw error
        }
    }
    if status != Status.ok { failed?.pointee = at }
    return status
}

@_cdecl("moa_solver_batch_conflicts")
public func moa_solver_batch_conflicts(
    _ s: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let s else { return Status.misuse }
    do {
        try ListOut(out, cap, count).write(SolverBox.from(s).record.batchConflicts)
        return Status.ok
    } catch {
        return error.status
    }
}

@_cdecl("moa_cons_remove")
public func moa_cons_remove(_ s: OpaquePointer?, _ c: UInt64) -> Int32 {
    withSolver(s) { box in try box.solver.remove(box.constraint(c)) }
}

@_cdecl("moa_cons_set_active")
public func moa_cons_set_active(_ s: OpaquePointer?, _ c: UInt64, _ active: Int32) -> Int32 {
    withSolver(s) { box in
        let c = try box.constraint(c)
        if active != 0 { try box.solver.activate(c) } else { try box.solver.deactivate(c) }
    }
}

@_cdecl("moa_cons_is_active")
public func moa_cons_is_active(_ s: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    withSolver(s) { box in
        try output(out) { try box.solver.isActive(box.constraint(c)) ? 1 : 0 }
    }
}

@_cdecl("moa_cons_constant")
public func moa_cons_constant(_ s: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withSolver(s) { box in
        try output(out) { try box.solver.constant(of: box.constraint(c)) }
    }
}

@_cdecl("moa_cons_set_constant")
public func moa_cons_set_constant(_ s: OpaquePointer?, _ c: UInt64, _ k: Double) -> Int32 {
    withSolver(s) { box in try box.solver.setConstant(k, of: box.constraint(c)) }
}

@_cdecl("moa_cons_priority")
public func moa_cons_priority(_ s: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withSolver(s) { box in
        try output(out) { try box.solver.priority(of: box.constraint(c)) }
    }
}

@_cdecl("moa_cons_set_priority")
public func moa_cons_set_priority(_ s: OpaquePointer?, _ c: UInt64, _ p: Double) -> Int32 {
    withSolver(s) { box in try box.solver.setPriority(p, of: box.constraint(c)) }
}

@_cdecl("moa_cons_weight")
public func moa_cons_weight(_ s: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withSolver(s) { box in
        try output(out) { try box.solver.weight(of: box.constraint(c)) }
    }
}

@_cdecl("moa_cons_set_weight")
public func moa_cons_set_weight(_ s: OpaquePointer?, _ c: UInt64, _ w: Double) -> Int32 {
    withSolver(s) { box in try box.solver.setWeight(w, of: box.constraint(c)) }
}

@_cdecl("moa_cons_tag")
public func moa_cons_tag(_ s: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?)
    -> Int32
{
    withSolver(s) { box in
        try output(out) { try box.text.keep(box.solver.tag(of: box.constraint(c))) }
    }
}

@_cdecl("moa_cons_describe")
public func moa_cons_describe(
    _ s: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    withSolver(s) { box in
        try output(out) { try box.text.keep(box.solver.description(of: box.constraint(c))) }
    }
}

// MARK: - Edit variables

@_cdecl("moa_solver_add_edit")
public func moa_solver_add_edit(_ s: OpaquePointer?, _ v: UInt64, _ priority: Double) -> Int32 {
    withSolver(s) { box in try box.solver.addEditVariable(box.variable(v), priority: priority) }
}

@_cdecl("moa_solver_remove_edit")
public func moa_solver_remove_edit(_ s: OpaquePointer?, _ v: UInt64) -> Int32 {
    withSolver(s) { box in try box.solver.removeEditVariable(box.variable(v)) }
}

@_cdecl("moa_solver_has_edit")
public func moa_solver_has_edit(_ s: OpaquePointer?, _ v: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    withSolver(s) { box in
        let out = try required(out, "out")
        let v = try box.variable(v)
        guard box.solver.contains(v) else { throw SolverError.unknownVariable }
        out.pointee = box.solver.hasEditVariable(v) ? 1 : 0
    }
}

@_cdecl("moa_solver_suggest")
public func moa_solver_suggest(_ s: OpaquePointer?, _ v: UInt64, _ value: Double) -> Int32 {
    withSolver(s) { box in try box.solver.suggestValue(value, for: box.variable(v)) }
}

// MARK: - Solving and inspection

@_cdecl("moa_solver_update")
public func moa_solver_update(_ s: OpaquePointer?) -> Int32 {
    withSolver(s) { box in box.solver.updateVariables() }
}

@_cdecl("moa_solver_counts")
public func moa_solver_counts(
    _ s: OpaquePointer?, _ nvars: UnsafeMutablePointer<Int>?, _ ncons: UnsafeMutablePointer<Int>?
) -> Int32 {
    withSolver(s) { box in
        nvars?.pointee = box.solver.variableCount
        ncons?.pointee = box.solver.constraintCount
    }
}

@_cdecl("moa_solver_dump")
public func moa_solver_dump(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    withSolver(s) { box in
        try output(out) { try box.text.keep(box.solver.dump()) }
    }
}
