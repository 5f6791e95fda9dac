import MoaSolver
import XCTest

/// Nested centring (found on a layout of nested boxes, `gen.py nested`): only required equalities, every add
/// succeeded, and yet a required equality ended 8 off.
///
/// Each step centres an item of width `w` on a box of width 20 placed 6 after the previous item:
/// `p + 0.5*q == l + 0.5*w`, then `w == 24`. With `w` (coefficient 0.5, the last fresh variable) as the passive
/// subject, `w := 2*p + q - 2*l` doubles the previous step's definition, and once `w == 24` makes `l` an active
/// row, expanding a later definition multiplied those factors out to 2^50 and more: the cancellation lost whole
/// units. The subject is now the fresh variable with the largest coefficient (`l`).
final class RegressionNestedTests: XCTestCase {
    func testNestedCentringKeepsRequiredEqualities() throws {
        let s = Solver()
        var equalities: [MoaSolver.Expression] = []
        func require(_ e: MoaSolver.Expression) throws {
            equalities.append(e)
            try s.add(e, .equal)
        }
        let steps = 60
        var l = s.addVariable(name: "l0"), w = s.addVariable(name: "w0")
        try require(MoaSolver.Expression(l))
        try require(w - 24)
        var lefts = [l]
        for k in 1...steps {
            let p = s.addVariable(name: "p\(k)"), q = s.addVariable(name: "q\(k)")
            let l2 = s.addVariable(name: "l\(k)"), w2 = s.addVariable(name: "w\(k)")
            try require(p - l - w - 6)
            try require(q - 20)
            try require(-1 * p - 0.5 * q + l2 + 0.5 * w2)
            try require(w2 - 24)
            l = l2; w = w2
            lefts.append(l)
        }
        s.updateVariables()
        for (i, e) in equalities.enumerated() {
            var value = e.constant
            for t in e.terms { value += t.coefficient * (try s.value(of: t.variable)) }
            XCTAssertEqual(value, 0, accuracy: 1e-6, "required equality #\(i)")
        }
        // The system fixes every left edge: l_k = l_{k-1} + 24 + 6 + 10 - 12.
        for k in 0...steps { XCTAssertEqual(try s.value(of: lefts[k]), Double(28 * k), accuracy: 1e-6) }
    }
}
