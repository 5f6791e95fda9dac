// Moa — C ABI: limits on a solver's or layout's size and on the work and time of a call, the progress
// callback, and what is in use (moa.h, "Limits and progress").

import MoaLayout
import MoaSolver

public typealias ProgressFn = @convention(c) (OpaquePointer?, UInt64, UnsafeMutableRawPointer?) -> Int32

@_cdecl("moa_solver_set_progress")
public func moa_solver_set_progress(_ s: OpaquePointer?, _ fn: ProgressFn?, _ every: UInt64,
                                    _ ud: UnsafeMutableRawPointer?) -> Int32 {
    withSolver(s) { box in
        guard let fn else {
            box.solver.setProgressCheck(nil)
            return
        }
        guard every >= 1 else { throw BoundaryFailure.invalid("every must be at least 1 pivot") }
        let handle = OpaquePointer(Unmanaged.passUnretained(box).toOpaque())
        box.solver.setProgressCheck(every: Int(clamping: every)) { [unowned box] pivots in
            box.inProgress = true
            defer { box.inProgress = false }
            return fn(handle, UInt64(pivots), ud) == 0
        }
    }
}

/// The C `moa_limit` values.
enum LimitName: Int32 {
    case rows = 0, cells = 1, seconds = 2, pivots = 3
}

/// A row, cell or pivot limit from C: a whole number in [1, 2^53].
func countLimit(_ value: Double) throws -> Int {
    guard value.isFinite, value >= 1, value <= 9_007_199_254_740_992, value.rounded() == value else {
        throw BoundaryFailure.invalid("a row, cell or pivot limit must be a whole number in [1, 2^53]")
    }
    return Int(value)
}

/// A time limit from C: finite and >= 0 (0 is none).
func secondsLimit(_ value: Double) throws -> Double {
    guard value.isFinite, value >= 0 else { throw BoundaryFailure.invalid("a time limit must be finite and >= 0") }
    return value
}

/// Writes a C `moa_usage` (five size_t) at `out`.
func writeUsage(_ out: UnsafeMutableRawPointer, rows: Int, cells: Int, variables: Int, constraints: Int, views: Int) {
    for (i, n) in [rows, cells, variables, constraints, views].enumerated() {
        out.storeBytes(of: UInt(n), toByteOffset: i * MemoryLayout<UInt>.stride, as: UInt.self)
    }
}

@_cdecl("moa_solver_set_limit")
public func moa_solver_set_limit(_ s: OpaquePointer?, _ which: Int32, _ value: Double) -> Int32 {
    withSolver(s) { box in
        switch LimitName(rawValue: which) {
        case .rows: box.solver.limits.maxRows = try countLimit(value)
        case .cells: box.solver.limits.maxCells = try countLimit(value)
        case .pivots: box.solver.limits.maxPivots = try countLimit(value)
        case .seconds: box.solver.limits.maxSeconds = try secondsLimit(value)
        case nil: throw BoundaryFailure.invalid("unknown limit \(which)")
        }
    }
}

@_cdecl("moa_solver_limit")
public func moa_solver_limit(_ s: OpaquePointer?, _ which: Int32, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withSolver(s) { box in
        let out = try required(out, "out")
        switch LimitName(rawValue: which) {
        case .rows: out.pointee = Double(box.solver.limits.maxRows)
        case .cells: out.pointee = Double(box.solver.limits.maxCells)
        case .pivots: out.pointee = Double(box.solver.limits.maxPivots)
        case .seconds: out.pointee = box.solver.limits.maxSeconds
        case nil: throw BoundaryFailure.invalid("unknown limit \(which)")
        }
    }
}

@_cdecl("moa_solver_usage")
public func moa_solver_usage(_ s: OpaquePointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    withSolver(s) { box in
        guard let out else { throw BoundaryFailure.misuse("out is NULL") }
        let u = box.solver.usage
        writeUsage(out, rows: u.rows, cells: u.cells, variables: u.variables, constraints: u.constraints, views: 0)
    }
}

@_cdecl("moa_layout_set_limit")
public func moa_layout_set_limit(_ L: OpaquePointer?, _ which: Int32, _ value: Double) -> Int32 {
    withLayoutChange(L) { box in
        var limits = box.layout.limits
        switch LimitName(rawValue: which) {
        case .rows: limits.maxRows = try countLimit(value)
        case .cells: limits.maxCells = try countLimit(value)
        case .pivots: limits.maxPivots = try countLimit(value)
        case .seconds: limits.maxSecondsPerCall = try secondsLimit(value)
        case nil: throw BoundaryFailure.invalid("unknown limit \(which)")
        }
        try box.layout.setLimits(limits)
    }
}

@_cdecl("moa_layout_limit")
public func moa_layout_limit(_ L: OpaquePointer?, _ which: Int32, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withLayout(L) { box in
        let out = try required(out, "out")
        let limits = box.layout.limits
        switch LimitName(rawValue: which) {
        case .rows: out.pointee = Double(limits.maxRows)
        case .cells: out.pointee = Double(limits.maxCells)
        case .pivots: out.pointee = Double(limits.maxPivots)
        case .seconds: out.pointee = limits.maxSecondsPerCall
        case nil: throw BoundaryFailure.invalid("unknown limit \(which)")
        }
    }
}

@_cdecl("moa_layout_usage")
public func moa_layout_usage(_ L: OpaquePointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    withLayout(L) { box in
        guard let out else { throw BoundaryFailure.misuse("out is NULL") }
        let u = box.layout.usage
        writeUsage(out, rows: u.solver.rows, cells: u.solver.cells, variables: u.solver.variables,
                   constraints: u.constraints, views: u.views)
    }
}

@_cdecl("moa_layout_set_progress")
public func moa_layout_set_progress(_ L: OpaquePointer?, _ fn: ProgressFn?, _ interval: UInt64,
                                    _ ud: UnsafeMutableRawPointer?) -> Int32 {
    withLayoutChange(L) { box in
        guard let fn else {
            try box.layout.setProgressHandler(nil)
            return
        }
        guard interval >= 1, interval <= UInt64(Int.max) else {
            throw BoundaryFailure.invalid("interval must be in [1, 2^63 - 1]")
        }
        try box.layout.setProgressHandler(every: Int(interval)) { [unowned box] steps in
            box.callbackDepth += 1
            defer { box.callbackDepth -= 1 }
            return fn(box.handle, UInt64(steps), ud) == 0
        }
    }
}
