import MoaSolver
import XCTest

/// `Solver.freeDirections()`: every variable it reports as `moved` moves when a weak edit pulls it alone (a
/// probe in a trial), and every variable such a probe moves is reported, as `moved` or `maybe`. Random small
/// systems with many constants at 0, so that rows at 0 (degenerate) stop some costless directions.
final class FreeDirectionsTests: XCTestCase {
    /// Whether `x` moves when pulled by a weak edit (the solver is put back).
    func movesAlone(_ s: Solver, _ x: Variable) -> Bool {
        s.trial { t in
            guard (try? t.addEditVariable(x, priority: 0.001)) != nil else { return false }
            t.updateVariables()
            let x0 = (try? t.value(of: x)) ?? 0
            for delta in [1.0, -1.0] {
                try? t.suggestValue(x0 + delta, for: x)
                t.updateVariables()
                if abs(((try? t.value(of: x)) ?? x0) - x0) > 1e-7 { return true }
            }
            return false
        }
    }

    func testMovedVariablesMoveAndMovableOnesAreListed() throws {
        var seed: UInt64 = 4242
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let relations: [Relation] = [.equal, .lessOrEqual, .greaterOrEqual, .greaterOrEqual]
        var movedSeen = 0, maybeMoving = 0, maybeFixed = 0
        for round in 0..<1200 {
            let s = Solver()
            let vars = (0..<(3 + next(5))).map { s.addVariable(name: "x\($0)") }
            for _ in 0..<(2 + next(9)) {
                var terms: [Term] = []
                for _ in 0..<(1 + next(3)) { terms.append(Term(vars[next(vars.count)], Double(next(5) - 2))) }
                let constant = next(3) == 0 ? Double(next(21) - 10) : 0
                let priority: Double? = next(3) == 0 ? [1.0, 10, 100, 500][next(4)] : nil
                if let priority {
                    _ = try? s.add(Expression(terms, constant: constant), relations[next(4)], priority: priority)
                } else {
                    _ = try? s.add(Expression(terms, constant: constant), relations[next(4)])
                }
            }
            s.updateVariables()
            let directions = s.freeDirections()
            for x in directions.moved {
                XCTAssertTrue(movesAlone(s, x), "round \(round): x\(x.index) reported moved\n\(s.dump())")
                movedSeen += 1
            }
            let listed = Set((directions.moved + directions.maybe).map(\.index))
            for x in vars where movesAlone(s, x) {
                XCTAssertTrue(listed.contains(x.index), "round \(round): x\(x.index) moves, not listed\n\(s.dump())")
            }
            for x in directions.maybe { if movesAlone(s, x) { maybeMoving += 1 } else { maybeFixed += 1 } }
        }
        // The rounds see both kinds: directions that move variables, and candidates that rows at 0 stop.
        XCTAssertGreaterThan(movedSeen, 1000)
        XCTAssertGreaterThan(maybeFixed, 20)
        print("free directions: \(movedSeen) moved, maybe \(maybeMoving) moving / \(maybeFixed) fixed")
    }
}
