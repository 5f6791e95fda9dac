// moa-bench — replays `.lin` workloads (../shared/bench/FORMAT.md) on Moa's solver.
//
//     moa-bench FILE.lin [-r REPS] [-d] [-s] [--batches]   (-d: values at every checkpoint; -s: solver
//         statistics per phase; --batches: each phase's adds before its first u or r added in one call,
//         `Solver.add(_: [ConstraintSpec])`, which ranks them as a layout's eqs does)
//     moa-bench --frames VIEWS [-r REPS] [--bulk]   (time per animation frame of a layout; see Frames.swift)
//     moa-bench --scenario NAME --views N [-r REPS]   (a layout built from equations, per step; see Scenarios.swift)
//
// Prints the same lines as the anchor drivers (../shared/bench/anchors/lin_common.h), so `bench.py` can run it
// beside kiwi and cross-check checksums. Priorities go to Moa as they are (Moa's priorities are strict); they are
// not turned into kiwi-style weights.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MoaSolver

let solverName = "moa"
let solverVersion = "\(MoaVersion.string)"

// MARK: - Output

/// Writes all of `bytes` to a file descriptor (stdio's `stdout`/`stderr` globals are not usable in Swift 6 mode).
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
    var off = 0
    while off < bytes.count {
        let n = write(fd, bytes.baseAddress! + off, bytes.count - off)
        if n < 0 {
            if errno == EINTR { continue }
            return
        }
        off += n
    }
}

/// Buffered standard output.
struct Out {
    var bytes: [UInt8] = []
    mutating func line(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        bytes.append(10)
    }
    mutating func flush() {
        bytes.withUnsafeBytes { writeAll(1, $0) }
        bytes.removeAll(keepingCapacity: true)
    }
}

func eprint(_ s: String) {
    let b = Array((s + "\n").utf8)
    b.withUnsafeBytes { writeAll(2, $0) }
}

/// `%.9g` formatting, as the C drivers print dump values.
func fmtG9(_ v: Double) -> String {
    var buf = [CChar](repeating: 0, count: 64)
    let n = withVaList([v]) { vsnprintf(&buf, buf.count, "%.9g", $0) }
    return String(decoding: buf[0 ..< Int(max(0, min(n, 63)))].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func hex16(_ v: UInt64) -> String {
    let h = String(v, radix: 16)
    return String(repeating: "0", count: 16 - h.count) + h
}

// MARK: - Clock and checksum

@inline(__always) func nowNS() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

struct Checksum: Equatable {
    var sum: Int64 = 0
    var hash: UInt64 = 0
}

/// FORMAT.md: q = floor(v * 1000 + 0.2345) as a 64-bit integer; sum of q; hash = sum of (i + 1) * q mod 2^64.
func checksum(_ v: UnsafeBufferPointer<Double>) -> Checksum {
    var c = Checksum()
    for i in 0 ..< v.count {
        let f = (v[i] * 1000.0 + 0.2345).rounded(.down)
        // Out of range or NaN: the value x86's cvttsd2si gives the C drivers, instead of a trap.
        let q: Int64 = (f >= -9.2e18 && f <= 9.2e18) ? Int64(f) : Int64.min
        c.sum = c.sum &+ q
        c.hash = c.hash &+ UInt64(i + 1) &* UInt64(bitPattern: q)
    }
    return c
}

// MARK: - Replay

struct BenchError: Error {
    var message: String
}

struct PhaseStat {
    var name: Int  // -1 = "main"
    var ns: UInt64
    var ops: Int
    var us: Int
}

/// Moa's side of the adapter: the solver, its variable handles and the live constraints by id.
final class MoaAdapter {
    let solver = Solver()
    var vars: [Variable] = []
    var cons: [Constraint?]
    var terms: [Term] = []

    init(_ w: Workload) {
        vars.reserveCapacity(w.nvars)
        for _ in 0 ..< w.nvars { vars.append(solver.addVariable()) }
        cons = [Constraint?](repeating: nil, count: w.maxID + 1)
    }

    /// The constraint an add op describes.
    @inline(__always) func spec(_ op: Op, _ w: Workload) -> ConstraintSpec {
        var terms: [Term] = []
        terms.reserveCapacity(Int(op.tlen))
        let b = Int(op.tbeg)
        for i in b ..< b + Int(op.tlen) {
            terms.append(Term(vars[Int(w.vars[i])], w.coef[i]))
        }
        let rel: Relation = op.rel == .eq ? .equal : op.rel == .le ? .lessOrEqual : .greaterOrEqual
        return ConstraintSpec(Expression(terms, constant: op.value), rel,
                              priority: op.required ? Priority.required : op.prio)
    }

    @inline(__always) func add(_ op: Op, _ w: Workload) throws {
        let s = spec(op, w)
        if cons[op.id] != nil { throw BenchError(message: "constraint id \(op.id) is already live") }
        do {
            cons[op.id] = try solver.add(s.expression, s.relation, priority: s.priority)
        } catch {
            throw BenchError(message: "adding constraint \(op.id): \(error.description)")
        }
    }

    /// Adds a run of adds in one call (`Solver.add(_: [ConstraintSpec])`, which ranks its fresh variables first).
    func addBatch(_ ops: [Op], _ w: Workload) throws {
        let batch = ops.map { spec($0, w) }
        for op in ops where cons[op.id] != nil { throw BenchError(message: "constraint id \(op.id) is already live") }
        do {
            for (op, c) in zip(ops, try solver.add(batch)) { cons[op.id] = c }
        } catch {
            throw BenchError(message: "adding constraint \(ops[error.index].id): \(error.error.description)")
        }
    }

    @inline(__always) func remove(_ id: Int) throws {
        guard id >= 0, id < cons.count, let c = cons[id] else {
            throw BenchError(message: "removing constraint \(id): not live")
        }
        do { try solver.remove(c) } catch {
            throw BenchError(message: "removing constraint \(id): \(error.description)")
        }
        cons[id] = nil
    }

    @inline(__always) func edit(_ v: Int, _ prio: Double) throws {
        do { try solver.addEditVariable(vars[v], priority: prio) } catch {
            throw BenchError(message: "edit variable \(v): \(error.description)")
        }
    }

    @inline(__always) func unedit(_ v: Int) throws {
        do { try solver.removeEditVariable(vars[v]) } catch {
            throw BenchError(message: "removing edit variable \(v): \(error.description)")
        }
    }

    @inline(__always) func suggest(_ v: Int, _ value: Double) throws {
        do { try solver.suggestValue(value, for: vars[v]) } catch {
            throw BenchError(message: "suggesting \(value) for variable \(v): \(error.description)")
        }
    }

    @inline(__always) func update(_ out: UnsafeMutableBufferPointer<Double>) throws {
        solver.updateVariables()
        do {
            try vars.withUnsafeBufferPointer { (vars) throws(SolverError) in try solver.values(of: vars, into: out) }
        } catch {
            throw BenchError(message: "reading values: \(error.description)")
        }
    }
}

/// One replay on a fresh solver, timing each phase as `lin::replay_once` does.
/// With `rankBatches`, the adds of each phase before its first update or removal go in as one batch
/// (`Solver.add(_: [ConstraintSpec])`, which ranks their fresh variables first, as a layout's `eqs` does).
func replayOnce(_ w: Workload, sums: inout [Checksum], dumps: inout [String]?, statistics: Bool = false,
                rankBatches: Bool = false) throws -> [PhaseStat] {
    let solver = MoaAdapter(w)
    let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(w.nvars, 1))
    values.initialize(repeating: 0)
    defer { values.deallocate() }
    var stats: [PhaseStat] = []
    var cur = -1
    var t0 = nowNS(), paused: UInt64 = 0
    var nops = 0, nus = 0
    var batch: [Op] = [], batchEnd = 0
    func closePhase(_ t: UInt64) {
        if cur >= 0 || nops > 0 { stats.append(PhaseStat(name: cur, ns: t &- t0 &- paused, ops: nops, us: nus)) }
        if statistics {
            let s = solver.solver._statistics
            eprint("stats \(cur < 0 ? "main" : w.phases[cur]): pivots=\(s.pivots) expansions=\(s.expansions) rows=\(s.rows) cells=\(s.cells) longestColumn=\(s.longestColumn) passive=\(s.passive) external=\(s.external) restricted=\(s.restricted) pivots(subject,optimize,phase1,dual)=\(solver.solver._pivotsByKind) rows=\(solver.solver._rowsRewrittenByKind) cells=\(solver.solver._cellsVisitedByKind) swaps=\(solver.solver._swaps.definitions) downstreamVisits=\(solver.solver._swaps.downstreamVisits) looks=\(solver.solver._candidateLooks) renumberings=\(solver.solver._rowRenumberings)")
        }
    }
    for (index, op) in w.ops.enumerated() {
        switch op.kind {
        case .p:
            closePhase(nowNS())
            cur = op.id; paused = 0; nops = 0; nus = 0
            t0 = nowNS()
            if rankBatches {
                let run = w.ops[(index + 1)...].prefix { $0.kind != .u && $0.kind != .r && $0.kind != .p }
                batch = run.filter { $0.kind == .c }
                batchEnd = run.endIndex
            }
            continue
        case .c where index < batchEnd:
            // The run's adds go in together at its first one; the run's edits and suggestions keep their places.
            if !batch.isEmpty { try solver.addBatch(batch, w); batch = [] }
        case .c: try solver.add(op, w)
        case .r: try solver.remove(op.id)
        case .e: try solver.edit(op.id, op.prio)
        case .x: try solver.unedit(op.id)
        case .s: try solver.suggest(op.id, op.value)
        case .u:
            try solver.update(values)
            let tp = nowNS()
            let ro = UnsafeBufferPointer(start: values.baseAddress, count: w.nvars)
            sums.append(checksum(ro))
            if dumps != nil {
                let k = sums.count - 1
                for i in 0 ..< w.nvars { dumps!.append("d \(k) \(i) \(fmtG9(values[i]))") }
            }
            paused &+= nowNS() &- tp
            nus += 1
        }
        nops += 1
    }
    closePhase(nowNS())
    return stats
}

func usage(_ argv0: String) -> Int32 {
    eprint("usage: \(argv0) FILE.lin [-r REPS] [-d] [-s] [--batches]\n"
           + "       \(argv0) --frames VIEWS [-r REPS] [--bulk]\n"
           + "       \(argv0) --scenario chain|grid|nested|labels --views N [-r REPS]")
    return 2
}

func runMain() -> Int32 {
    let args = CommandLine.arguments
    if args.count >= 3 && args[1] == "--frames" {
        let reps = args.count >= 5 && args[3] == "-r" ? Int(atoi(args[4])) : 1
        return runFrames(Int(atoi(args[2])), reps: max(1, reps), bulk: args.contains("--bulk"))
    }
    if args.count >= 2 && args[1] == "--scenario" { return runScenario(args) }
    var path: String? = nil
    var dump = false
    var statistics = false
    var rankBatches = false
    var reps = 1
    var i = 1
    while i < args.count {
        let a = args[i]
        if a == "-d" {
            dump = true
        } else if a == "-s" {
            statistics = true
        } else if a == "--batches" {
            rankBatches = true
        } else if a.hasPrefix("-r") {
            var n = String(a.dropFirst(2))
            if n.isEmpty {
                i += 1
                if i >= args.count { return usage(args[0]) }
                n = args[i]
            }
            reps = Int(atoi(n))
        } else if a == "-h" || a == "--help" {
            _ = usage(args[0])
            return 0
        } else {
            path = a
        }
        i += 1
    }
    guard let path, reps >= 1 else { return usage(args[0]) }

    guard var bytes = readFile(path) else {
        perror(path)
        return 2
    }
    let w: Workload
    do {
        w = try parseWorkload(&bytes)
    } catch {
        eprint("lin: \(error.message) (line \(error.line))")
        return 2
    }
    bytes = []

    var out = Out()
    var first: [Checksum] = []
    var dumps: [String]? = nil
    var all: [[PhaseStat]] = []
    for r in 0 ..< reps {
        var sums: [Checksum] = []
        var d: [String]? = (dump && r == 0) ? [] : nil
        do {
            all.append(try replayOnce(w, sums: &sums, dumps: &d, statistics: statistics && r == 0,
                                       rankBatches: rankBatches))
        } catch let e as BenchError {
            out.flush()
            eprint("moa error: \(e.message)")
            return 3
        } catch {
            out.flush()
            eprint("moa error: \(error)")
            return 3
        }
        if r == 0 {
            first = sums
            dumps = d
        } else if sums != first {
            out.line("warning: replay \(r) checksums differ from replay 0")
        }
    }
    out.line("solver \(solverName) \(solverVersion)")
    out.line("file \(path)")
    for (k, c) in first.enumerated() {
        out.line("u \(k) n=\(w.nvars) sum=\(c.sum) hash=\(hex16(c.hash))")
    }
    for r in 0 ..< reps {
        var total: UInt64 = 0
        for st in all[r] {
            let name = st.name < 0 ? "main" : w.phases[st.name]
            out.line("phase \(name) ns=\(st.ns) ops=\(st.ops) u=\(st.us) rep=\(r)")
            total &+= st.ns
        }
        out.line("total ns=\(total) rep=\(r)")
    }
    if let dumps {
        for d in dumps {
            out.line(d)
            if out.bytes.count > 1 << 20 { out.flush() }
        }
    }
    out.flush()
    return 0
}

exit(runMain())
