import MoaSolver
import XCTest

/// SplitMix64: a small deterministic generator, so every random test replays the same way.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
}

/// A constraint as the test knows it, to rebuild and evaluate it independently of the solver.
struct Spec {
    var terms: [(Int, Double)]
    var constant: Double
    var relation: Relation
    var priority: Double
    var weight: Double

    func residual(_ x: [Double]) -> Double {
        terms.reduce(constant) { $0 + $1.1 * x[$1.0] }
    }
    /// How far the constraint is from holding (0 when it holds).
    func violation(_ x: [Double]) -> Double {
        let r = residual(x)
        switch relation {
        case .equal: return abs(r)
        case .lessOrEqual: return max(0, r)
        case .greaterOrEqual: return max(0, -r)
        }
    }
}

/// Random operation sequences with invariants checked after every step: required constraints hold; a failed
/// call leaves the dump identical; a reported conflict is minimal; the incremental optimum equals a
/// from-scratch optimum (lexicographic objective by priority level).
final class RandomTests: XCTestCase {
    let priorities: [Double] = [1000, 1000, 1000, 750, 500, 250, 100]
    /// Batches that failed as unsatisfiable in `run(batches: true)` sequences.
    var batchConflictsSeen = 0

    func fresh(_ specs: [Spec], nvars: Int) -> (Solver, [Variable], Bool) {
        let s = Solver()
        let vs = (0..<nvars).map { s.addVariable(name: "x\($0)") }
        var ok = true
        for sp in specs {
            let e = Expression(sp.terms.map { Term(vs[$0.0], $0.1) }, constant: sp.constant)
            if (try? s.add(e, sp.relation, priority: sp.priority, weight: sp.weight)) == nil { ok = false }
        }
        return (s, vs, ok)
    }

    func feasible(_ specs: [Spec], nvars: Int) -> Bool {
        fresh(specs.map { var r = $0; r.priority = 1000; return r }, nvars: nvars).2
    }

    func objective(_ specs: [Spec], _ x: [Double]) -> [Double] {
        let levels = Set(specs.map(\.priority)).filter { $0 < 1000 }.sorted(by: >)
        return levels.map { p in specs.filter { $0.priority == p }.reduce(0) { $0 + $1.weight * $1.violation(x) } }
    }

    func randomSpec(_ rng: inout SplitMix, nvars: Int, chains: Bool = false) -> Spec {
        if chains && rng.chance(0.5) {
            // A link of a chain of definitions (x_i == x_j + c, j < i): passive rows and their aggregates.
            let i = 1 + rng.int(nvars - 1), j = rng.int(i)
            return Spec(terms: [(i, 1), (j, -1)], constant: Double(rng.int(21) - 10), relation: .equal,
                        priority: rng.chance(0.8) ? 1000 : 500, weight: 1)
        }
        var terms: [(Int, Double)] = []
        for _ in 0..<(1 + rng.int(3)) {
            let v = rng.int(nvars)
            if terms.contains(where: { $0.0 == v }) { continue }
            let c = Double([-2, -1, -1, 1, 1, 1, 2, 0.5][rng.int(8)])
            terms.append((v, c))
        }
        let rel: Relation = [.equal, .lessOrEqual, .greaterOrEqual][rng.int(3)]
        return Spec(terms: terms, constant: Double(rng.int(41) - 20), relation: rel,
                    priority: priorities[rng.int(priorities.count)], weight: rng.chance(0.8) ? 1 : 2)
    }

    func checkConflict(_ conflicts: [Constraint], against newSpec: Spec, live: [Constraint: Spec], nvars: Int,
                       file: StaticString = #filePath, line: UInt = #line) {
        let set = conflicts.compactMap { live[$0] }
        XCTAssertEqual(set.count, conflicts.count, "conflicts name live constraints", file: file, line: line)
        checkConflict(set, against: newSpec, nvars: nvars, file: file, line: line)
    }

    /// `set` (required constraints) with `newSpec` made required cannot hold, and without any one of them can.
    func checkConflict(_ set: [Spec], against newSpec: Spec, nvars: Int,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(set.allSatisfy { $0.priority == 1000 }, "conflicts are required", file: file, line: line)
        XCTAssertFalse(feasible(set + [newSpec], nvars: nvars), "the conflict set is infeasible", file: file, line: line)
        for i in set.indices {
            var rest = set
            rest.remove(at: i)
            XCTAssertTrue(feasible(rest + [newSpec], nvars: nvars), "the conflict set is minimal", file: file, line: line)
        }
    }

    /// Returns the number of conflicts the sequence met (each test checks its sequences met some).
    @discardableResult
    /// With `batches`, a tenth of the steps add a batch of one to six constraints in one call
    /// (`add(_: [ConstraintSpec])`); a failed batch must leave the dump identical and name a minimal conflict
    /// across the solver and the batch.
    func run(seed: UInt64, steps: Int, nvars: Int, chains: Bool = false, deep: Bool = false,
             batches: Bool = false) throws -> Int {
        var rng = SplitMix(state: seed)
        let s = Solver()
        let vs = (0..<nvars).map { s.addVariable(name: "x\($0)") }
        var live: [Constraint: Spec] = [:]
        var order: [Constraint] = []            // deterministic iteration
        var edits: [Int: (Double, Double)] = [:] // var -> (priority, suggested)
        var conflictsSeen = 0

        for step in 0..<steps {
            let before = s.dump()
            var failed: SolverError? = nil
            var failedSpec: Spec? = nil
            let op = rng.int(100)
            do {
                if batches && rng.chance(0.1) {
                    let specs = (0..<(1 + rng.int(6))).map { _ in randomSpec(&rng, nvars: nvars, chains: chains) }
                    let items = specs.map { sp in
                        ConstraintSpec(Expression(sp.terms.map { Term(vs[$0.0], $0.1) }, constant: sp.constant),
                                       sp.relation, priority: sp.priority, weight: sp.weight)
                    }
                    let count = s.usage.constraints
                    do throws(BatchError) {
                        let made = try s.add(items)
                        for (c, sp) in zip(made, specs) { live[c] = sp; order.append(c) }
                    } catch {
                        XCTAssertEqual(s.usage.constraints, count, "step \(step): a failed batch added constraints")
                        XCTAssertEqual(s.dump(), before, "step \(step): a failed batch changed the solver (\(error))")
                        if case .unsatisfiable(let conflicts) = error.error {
                            var failing = specs[error.index]
                            failing.priority = 1000
                            XCTAssertTrue(error.batchConflicts.allSatisfy { $0 < error.index })
                            let set = conflicts.compactMap { live[$0] } + error.batchConflicts.map { specs[$0] }
                            XCTAssertEqual(set.count, conflicts.count + error.batchConflicts.count)
                            checkConflict(set, against: failing, nvars: nvars)
                            conflictsSeen += 1
                            batchConflictsSeen += 1
                        } else {
                            XCTFail("step \(step): unexpected error \(error)")
                        }
                    }
                } else if op < 45 || order.isEmpty {
                    let sp = randomSpec(&rng, nvars: nvars, chains: chains)
                    failedSpec = sp
                    let e = Expression(sp.terms.map { Term(vs[$0.0], $0.1) }, constant: sp.constant)
                    let c = try s.add(e, sp.relation, priority: sp.priority, weight: sp.weight)
                    live[c] = sp; order.append(c)
                } else if op < 55 {
                    let c = order.remove(at: rng.int(order.count))
                    try s.remove(c)
                    live[c] = nil
                } else if op < 60 {
                    // Several at once, in the solver's order, optimised once.
                    var batch: [Constraint] = []
                    // Up to 10: at least `rebuildBatch` (8) and half the system rebuilds what stays instead.
                    for _ in 0..<min(order.count, 2 + rng.int(9)) { batch.append(order.remove(at: rng.int(order.count))) }
                    try s.remove(batch)
                    for c in batch { live[c] = nil }
                } else if op < 72 {
                    let c = order[rng.int(order.count)]
                    var sp = live[c]!
                    sp.constant = Double(rng.int(41) - 20)
                    failedSpec = sp
                    try s.setConstant(sp.constant, of: c)
                    live[c] = sp
                } else if op < 82 {
                    let c = order[rng.int(order.count)]
                    var sp = live[c]!
                    sp.priority = priorities[rng.int(priorities.count)]
                    failedSpec = sp
                    try s.setPriority(sp.priority, of: c)
                    live[c] = sp
                } else if op < 90 {
                    let v = rng.int(nvars)
                    if edits[v] == nil {
                        let p = [750.0, 500, 250][rng.int(3)]
                        s.updateVariables()
                        try s.addEditVariable(vs[v], priority: p)
                        edits[v] = (p, try s.value(of: vs[v]))
                    } else {
                        try s.removeEditVariable(vs[v])
                        edits[v] = nil
                    }
                } else {
                    if let v = edits.keys.sorted().first {
                        let value = Double(rng.int(201) - 100)
                        try s.suggestValue(value, for: vs[v])
                        edits[v]!.1 = value
                    }
                }
            } catch {
                failed = error
            }
            if let failed {
                XCTAssertEqual(s.dump(), before, "step \(step): a failed call changed the solver (\(failed))")
                if case .unsatisfiable(let conflicts) = failed, var sp = failedSpec {
                    sp.priority = 1000
                    checkConflict(conflicts, against: sp, live: live, nvars: nvars)
                    conflictsSeen += 1
                } else {
                    XCTFail("step \(step): unexpected error \(failed)")
                }
            }
            s.updateVariables()
            if let problem = s._consistencyProblem() {
                XCTFail("step \(step) (op \(op)): \(problem)\n--- before\n\(before)\n--- after\n\(s.dump())")
                return conflictsSeen
            }
            if deep, let problem = s._deepConsistencyProblem() {
                XCTFail("step \(step) (op \(op)): \(problem)\n--- before\n\(before)\n--- after\n\(s.dump())")
                return conflictsSeen
            }
            let x = try vs.map { try s.value(of: $0) }
            for c in order where live[c]!.priority == 1000 {
                let text = (try? s.description(of: c)) ?? "?"
                XCTAssertLessThan(live[c]!.violation(x), 1e-6, "step \(step): required \(text) broken")
            }
            if step % 5 == 0 {
                var all = order.map { live[$0]! }
                for (v, e) in edits.sorted(by: { $0.key < $1.key }) {
                    all.append(Spec(terms: [(v, 1)], constant: -e.1, relation: .equal, priority: e.0, weight: 1))
                }
                let (f, fvs, ok) = fresh(all, nvars: nvars)
                XCTAssertTrue(ok, "step \(step): the live system rebuilds")
                f.updateVariables()
                let y = try fvs.map { try f.value(of: $0) }
                let a = objective(all, x), b = objective(all, y)
                for i in a.indices {
                    XCTAssertEqual(a[i], b[i], accuracy: 1e-6 * max(1, abs(b[i])), "step \(step): level \(i) not optimal")
                }
            }
        }
        return conflictsSeen
    }

    func testRandomSequencesSmall() throws {
        var conflicts = 0
        for seed: UInt64 in 1...12 { conflicts += try run(seed: seed, steps: 300, nvars: 5) }
        XCTAssertGreaterThan(conflicts, 0, "the sequences exercised conflicts")
    }

    /// Many variables: most constraints start as passive definitions, later removed, changed or expanded.
    func testRandomSequencesManyVariables() throws {
        var conflicts = 0
        for seed: UInt64 in 200...203 { conflicts += try run(seed: seed, steps: 300, nvars: 40) }
        XCTAssertGreaterThan(conflicts, 0, "the sequences exercised conflicts")
    }

    /// Chains of definitions with constraints on their ends, links changed and removed.
    func testRandomChains() throws {
        var conflicts = 0
        for seed: UInt64 in 300...307 { conflicts += try run(seed: seed, steps: 300, nvars: 30, chains: true) }
        XCTAssertGreaterThan(conflicts, 0, "the sequences exercised conflicts")
    }

    /// After every step, a trial shift of every constraint's constant keeps the tableau consistent with the
    /// constraints: dummy and aggregate content, which values alone do not show, is right (definitions that
    /// change hands and swaps rewrite it).
    func testDeepConsistency() throws {
        var conflicts = try run(seed: 300, steps: 300, nvars: 30, chains: true, deep: true)
        conflicts += try run(seed: 1, steps: 300, nvars: 5, deep: true)
        conflicts += try run(seed: 201, steps: 300, nvars: 40, deep: true)
        XCTAssertGreaterThan(conflicts, 0, "the sequences exercised conflicts")
    }

    /// Batches among the other calls: all or nothing, conflicts minimal across the solver and the batch, the
    /// tableau consistent after every step.
    func testRandomBatches() throws {
        var conflicts = 0
        for seed: UInt64 in 400...403 { conflicts += try run(seed: seed, steps: 300, nvars: 12, batches: true) }
        for seed: UInt64 in 410...411 {
            conflicts += try run(seed: seed, steps: 200, nvars: 30, chains: true, deep: seed == 410, batches: true)
        }
        XCTAssertGreaterThan(conflicts, 0, "the sequences exercised conflicts")
        XCTAssertGreaterThan(batchConflictsSeen, 5, "the sequences exercised failed batches")
    }

    func testRandomSequencesWider() throws {
        var conflicts = 0
        for seed: UInt64 in 100...103 { conflicts += try run(seed: seed, steps: 400, nvars: 12) }
        XCTAssertGreaterThan(conflicts, 0, "the sequences exercised conflicts")
    }
}
