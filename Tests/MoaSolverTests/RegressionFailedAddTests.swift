// Moa — a failed (unsatisfiable) add must leave nothing behind that a later call trips on (found by a
// wild-number stress of the C API in the sixteenth session, with nice numbers).

import MoaSolver
import XCTest

final class RegressionFailedAddTests: XCTestCase {
    func testFailedAddThenRemovalKeepsRequiredConstraints() throws {
        let s = Solver()
        let x = s.addVariable(name: "x"), y = s.addVariable(name: "y"), z = s.addVariable(name: "z")
        let c1 = try s.add(Expression([Term(x, -9)], constant: -70), .equal, tag: "c1")
        try s.add(Expression([Term(x, 1), Term(y, 1), Term(z, -16)], constant: 40), .greaterOrEqual, tag: "c2")
        try s.add(Expression([Term(z, -18)], constant: -160), .greaterOrEqual, tag: "c3")
        let before = s.dump()
        XCTAssertNil(s._deepConsistencyProblem(), "before the failed add")
        XCTAssertThrowsError(try s.add(Expression([Term(x, -1), Term(z, 2)], constant: -170), .equal, tag: "c4"))
        XCTAssertEqual(s.dump(), before)
        XCTAssertNil(s._deepConsistencyProblem())
        try s.remove(c1)
        s.updateVariables()
        XCTAssertNil(s._deepConsistencyProblem())
        let X = try s.value(of: x), Y = try s.value(of: y), Z = try s.value(of: z)
        XCTAssertGreaterThanOrEqual(X + Y - 16 * Z + 40, -1e-9)
        XCTAssertGreaterThanOrEqual(-18 * Z - 160, -1e-9, "z = \(Z)")
    }
}
