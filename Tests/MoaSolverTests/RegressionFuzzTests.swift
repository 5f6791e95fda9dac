import XCTest
@testable import MoaSolver

/// Found by moa-fuzz (Tests/fuzz/corpus/solver/regress-add-cycle): after an optional constraint with a 1e9
/// coefficient and an edit, adding `-103 v + 1e-9 <= 0 @21` made the re-optimisation cycle on rounding noise
/// until its iteration bound. The add then failed with an internal error after pivoting, so the failed call
/// had changed the solver. Now a failed optimisation after an add leaves a feasible tableau and the add stands.
final class RegressionFuzzTests: XCTestCase {
    func testAddWhoseOptimisationCyclesEitherSucceedsOrChangesNothing() throws {
        let s = Solver()
        let v = s.addVariable(name: "v0")
        try s.add(Expression([Term(v, 1e9)], constant: 0.3333333333333333), .greaterOrEqual, priority: 250)
        try s.addEditVariable(v, priority: 513)
        let before = s.dump()
        do {
            try s.add(Expression([Term(v, -103)], constant: 1e-9), .lessOrEqual, priority: 21)
        } catch {
            XCTAssertEqual(s.dump(), before, "a failed add changed the solver (\(error))")
        }
    }
}
