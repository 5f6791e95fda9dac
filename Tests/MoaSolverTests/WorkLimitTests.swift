import MoaSolver
import XCTest

/// Pivots and seconds per call (`SolverLimits.maxPivots`, `maxSeconds`, `Solver.callDeadline`): a call that
/// reaches one stops between two pivots, throws `.limit` and changes nothing; the same call succeeds again
/// without the limit.
final class WorkLimitTests: XCTestCase {
    /// A row of `n` boxes in a container whose right edge is an edit variable (the drag workload of
    /// bench/DRAG.md): preferred widths at seven priorities with distinct weights, so the optimum is unique and
    /// a far jump of the edge moves the boxes one per pivot.
    struct Row {
        let solver = Solver()
        var left: [Variable] = [], width: [Variable] = []
        let containerLeft: Variable, containerRight: Variable
        /// The container's width with every box at its minimum (20) and at its preference.
        var minimum = 8.0, natural = 8.0

        init(boxes n: Int) throws {
            let s = solver
            containerLeft = s.addVariable(name: "container.left")
            containerRight = s.addVariable(name: "container.right")
            try s.add(Expression([Term(containerLeft, 1)]), .equal)
            let prefs = [40.5, 50.25, 50.25, 60.125, 72.75]
            for i in 0..<n {
                let l = s.addVariable(name: "left\(i)"), w = s.addVariable(name: "width\(i)")
                let previous = i == 0 ? [Term(containerLeft, -1)] : [Term(left[i - 1], -1), Term(width[i - 1], -1)]
                try s.add(Expression([Term(l, 1)] + previous, constant: i == 0 ? -8 : -8.25), .equal)
                try s.add(Expression([Term(w, 1)], constant: -20), .greaterOrEqual)
                let k = 1 + Double(i / 7) * 0.015625, p = prefs[i % prefs.count]
                try s.add(Expression([Term(w, k)], constant: -k * p), .equal, priority: 250 + Double(i % 7) * 8)
                left.append(l); width.append(w)
                minimum += 20 + (i == 0 ? 0 : 8.25)
                natural += p + (i == 0 ? 0 : 8.25)
            }
            minimum += 8; natural += 8
            let last = [Term(left[n - 1], 1), Term(width[n - 1], 1)]
            try s.add(Expression([Term(containerRight, 1)] + last.map { Term($0.variable, -$0.coefficient) },
                                 constant: -8), .greaterOrEqual)
            try s.add(Expression(last + [Term(containerRight, -1)], constant: 8), .equal, priority: 325)
            try s.addEditVariable(containerRight, priority: 750)
            try s.suggestValue(natural, for: containerRight)
            s.updateVariables()
        }

        func values() throws -> [Double] {
            try ([containerLeft, containerRight] + left + width).map { try solver.value(of: $0) }
        }
    }

    /// Asserts that `call` throws `.limit` and that the solver's values and constraints are as before it.
    func assertStopped(_ row: Row, file: StaticString = #filePath, line: UInt = #line,
                       _ call: () throws -> Void) throws {
        let before = try row.values(), constraints = row.solver.constraintCount, dump = row.solver.dump()
        XCTAssertThrowsError(try call(), file: file, line: line) {
            guard case SolverError.limit(let m) = $0 else { return XCTFail("not a limit: \($0)", file: file, line: line) }
            XCTAssertTrue(m.contains("limit") || m.contains("deadline"), m, file: file, line: line)
        }
        // Exactly: the tableau too (a limited call runs in a transaction).
        XCTAssertEqual(row.solver.dump(), dump, file: file, line: line)
        row.solver.updateVariables()
        XCTAssertEqual(try row.values(), before, file: file, line: line)
        XCTAssertEqual(row.solver.constraintCount, constraints, file: file, line: line)
        XCTAssertNil(row.solver._consistencyProblem(), file: file, line: line)
    }

    func testDefaults() {
        let limits = SolverLimits()
        XCTAssertEqual(limits.maxPivots, 10_000_000)
        XCTAssertEqual(limits.maxSeconds, 0)
        XCTAssertEqual(Solver().callDeadline, 0)
    }

    func testSuggestionStoppedByPivotsLimitChangesNothing() throws {
        let row = try Row(boxes: 40)
        let s = row.solver
        let pivots = s._pivotsByKind.reduce(0, +)
        row.solver.limits.maxPivots = 3
        try assertStopped(row) { try s.suggestValue(row.minimum, for: row.containerRight) }
        // What the failed call did is undone, not merely left unfinished: the same call without the limit
        // takes the same path as on a solver that never failed (many pivots: one box at a time).
        row.solver.limits.maxPivots = SolverLimits.defaultMaxPivots
        try s.suggestValue(row.minimum, for: row.containerRight)
        s.updateVariables()
        XCTAssertGreaterThan(s._pivotsByKind.reduce(0, +) - pivots, 10)
        for w in row.width { XCTAssertEqual(try s.value(of: w), 20, accuracy: 1e-9) }

        let fresh = try Row(boxes: 40)
        try fresh.solver.suggestValue(row.minimum, for: fresh.containerRight)
        fresh.solver.updateVariables()
        XCTAssertEqual(try fresh.values(), try row.values())
    }

    func testAddStoppedByPivotsLimitIsTakenOutAgain() throws {
        let row = try Row(boxes: 40)
        let s = row.solver
        try s.suggestValue(row.minimum + 400, for: row.containerRight)
        s.updateVariables()
        // Every box at its minimum width but one takes 400 more; pinning the container's edge lower, required,
        // makes the boxes give way one by one.
        s.limits.maxPivots = 2
        let pin = Expression([Term(row.containerRight, 1)], constant: -(row.minimum + 10))
        try assertStopped(row) { _ = try s.add(pin, .lessOrEqual) }
        s.limits.maxPivots = SolverLimits.defaultMaxPivots
        let c = try s.add(pin, .lessOrEqual)
        s.updateVariables()
        XCTAssertEqual(try s.value(of: row.containerRight), row.minimum + 10, accuracy: 1e-9)
        // Removing it again needs the same pivots back: stopped, and still in.
        s.limits.maxPivots = 2
        try assertStopped(row) { try s.remove(c) }
        XCTAssertTrue(s.contains(c))
        s.limits.maxPivots = SolverLimits.defaultMaxPivots
        try s.remove(c)
        s.updateVariables()
        XCTAssertEqual(try s.value(of: row.containerRight), row.minimum + 400, accuracy: 1e-9)
    }

    func testTimeLimitAndDeadlineStopALongCall() throws {
        let row = try Row(boxes: 300)
        let s = row.solver
        s.limits.maxSeconds = 1e-9   // past after the first 64 pivots
        try assertStopped(row) { try s.suggestValue(row.minimum, for: row.containerRight) }
        s.limits.maxSeconds = 0
        s.callDeadline = monotonicSeconds() - 1
        try assertStopped(row) { try s.suggestValue(row.minimum, for: row.containerRight) }
        s.callDeadline = 0
        try s.suggestValue(row.minimum, for: row.containerRight)
        s.updateVariables()
        XCTAssertEqual(try s.value(of: row.width[123]), 20, accuracy: 1e-9)
    }

    /// Random calls under random pivot limits: every call that fails with `.limit` leaves the values as they
    /// were, and the solver ends where a twin without limits, given only the calls that succeeded, ends.
    func testRandomCallsUnderPivotLimits() throws {
        for seed in 0..<4 {
            var rng = SplitMix(state: UInt64(seed) &+ 77)
            let row = try Row(boxes: 24), twin = try Row(boxes: 24)
            var extra: [(Constraint, Constraint)] = []
            var stopped = 0
            for step in 0..<200 {
                row.solver.limits.maxPivots = 1 + rng.int(6)
                let before = try row.values()
                let op = rng.int(4)
                let k = rng.int(24)
                let value = (row.minimum - 50 + Double(rng.int(Int(row.natural - row.minimum) + 350))).rounded()
                do {
                    switch op {
                    case 0:
                        try row.solver.suggestValue(value, for: row.containerRight)
                        try twin.solver.suggestValue(value, for: twin.containerRight)
                    case 1:
                        let e = { (r: Row) in Expression([Term(r.width[k], 1)], constant: -Double(20 + step % 40)) }
                        let p = Double(200 + step % 500)
                        let c = try row.solver.add(e(row), .greaterOrEqual, priority: p)
                        extra.append((c, try twin.solver.add(e(twin), .greaterOrEqual, priority: p)))
                    case 2 where !extra.isEmpty:
                        let i = rng.int(extra.count)
                        try row.solver.remove(extra[i].0)
                        try twin.solver.remove(extra[i].1)
                        extra.remove(at: i)
                    default:
                        guard let (c, t) = extra.last else { continue }
                        let p = Double(100 + rng.int(800))
                        try row.solver.setPriority(p, of: c)
                        try twin.solver.setPriority(p, of: t)
                    }
                } catch SolverError.limit {
                    stopped += 1
                    row.solver.updateVariables()
                    XCTAssertEqual(try row.values(), before, "seed \(seed) step \(step) op \(op)")
                }
                row.solver.updateVariables()
                twin.solver.updateVariables()
                XCTAssertNil(row.solver._consistencyProblem(), "seed \(seed) step \(step)")
                let a = try row.values(), b = try twin.values()
                for i in a.indices { XCTAssertEqual(a[i], b[i], accuracy: 1e-7, "seed \(seed) step \(step) var \(i)") }
            }
            XCTAssertGreaterThan(stopped, 10)
        }
    }
}
