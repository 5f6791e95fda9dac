import MoaSolver
import XCTest

/// `Solver.trial` runs changes and puts the solver back exactly: same dump, same values, same changed list, and
/// the solver goes on as if the trial had not happened.
final class TrialTests: XCTestCase {
    func testTrialPutsEverythingBack() throws {
        let s = Solver()
        let x = s.addVariable(name: "x"), y = s.addVariable(name: "y")
        _ = try s.add(Expression([Term(x, 1), Term(y, -1)], constant: 10), .equal)           // y == x + 10
        _ = try s.add(Expression([Term(x, 1)], constant: -5), .greaterOrEqual)                // x >= 5
        _ = try s.add(Expression([Term(x, 1)], constant: -100), .equal, priority: 10)         // x == 100 @10
        s.updateVariables()
        _ = s.takeChangedVariables()
        let dump = s.dump()
        let seen = s.trial { t -> Double in
            let z = t.addVariable(name: "z")
            _ = try? t.add(Expression([Term(z, 1), Term(x, -1)]), .equal)
            _ = try? t.add(Expression([Term(x, 1)], constant: -7), .equal, priority: 500)
            try? t.addEditVariable(y, priority: 900)
            try? t.suggestValue(3, for: y)
            t.updateVariables()
            return (try? t.value(of: y)) ?? .nan
        }
        XCTAssertEqual(seen, 15)   // y == x + 10 and x >= 5 hold; the edit pulls y down to 15
        XCTAssertEqual(s.dump(), dump)
        XCTAssertEqual(s.takeChangedVariables(), [], "the trial's changes are not reported")
        XCTAssertEqual(try s.value(of: x), 100)
        XCTAssertFalse(s.hasEditVariable(y))
        // The solver goes on normally.
        _ = try s.add(Expression([Term(x, 1)], constant: -50), .equal, priority: 20)
        s.updateVariables()
        XCTAssertEqual(try s.value(of: x), 50)
        XCTAssertEqual(try s.value(of: y), 60)
        XCTAssertNil(s._consistencyProblem())
    }
}
