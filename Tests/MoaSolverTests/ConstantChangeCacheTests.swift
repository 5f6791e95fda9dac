import MoaSolver
import XCTest

/// A constant change of a definition moves the active rows that hold the aggregates downstream of it
/// (`Tableau.aggregatesDownstream(of:)`, cached until a passive row or an aggregate changes shape). Constants
/// changed between shape changes (definitions taken out and put back, new ones downstream, inequalities that
/// bring aggregates into active rows) must leave a tableau that agrees with the constraints, and values equal
/// to a solver built afresh.
final class ConstantChangeCacheTests: XCTestCase {
    func testConstantChangesFollowShapeChanges() throws {
        var rng = SplitMix(state: 11)
        for round in 0..<12 {
            let s = Solver()
            let n = 24
            let x = (0..<n).map { s.addVariable(name: "x\($0)") }
            var live: [(e: MoaSolver.Expression, r: Relation, p: Double, h: Constraint)] = []
            func add(_ e: MoaSolver.Expression, _ r: Relation, _ p: Double = Priority.required) throws {
                live.append((e, r, p, try s.add(e, r, priority: p)))
            }
            try add(Expression([Term(x[0], 1)]), .equal)
            for i in 1..<n { try add(Expression([Term(x[i], 1), Term(x[i - 1], -1)], constant: -Double(1 + i % 5)), .equal) }
            for step in 0..<80 {
                let i = 1 + rng.int(n - 1)
                switch rng.int(6) {
                case 0, 1, 2:   // a link's constant, as an animation changes it frame after frame
                    guard let k = live.firstIndex(where: { $0.r == .equal && $0.e.terms.first?.variable == x[i] }) else { continue }
                    let e = Expression(live[k].e.terms, constant: -Double(rng.int(30)))
                    try s.setConstant(e.constant, of: live[k].h)
                    live[k].e = e
                case 3:         // a soft bound on a late position: its row holds the aggregates of the chain
                    try add(Expression([Term(x[i], 1)], constant: -Double(rng.int(400))), .lessOrEqual, 300 + Double(rng.int(400)))
                case 4:         // a link out and in again (the definitions downstream change hands)
                    guard let k = live.firstIndex(where: { $0.r == .equal && $0.e.terms.first?.variable == x[i] }) else { continue }
                    let link = live.remove(at: k)
                    try s.remove(link.h)
                    try add(link.e, link.r, link.p)
                default:        // a bound goes
                    guard let k = live.lastIndex(where: { $0.r == .lessOrEqual }) else { continue }
                    try s.remove(live.remove(at: k).h)
                }
                s.updateVariables()
                XCTAssertNil(s._deepConsistencyProblem(), "round \(round) step \(step)")
                let fresh = Solver()
                let y = (0..<n).map { fresh.addVariable(name: "x\($0)") }
                for c in live {
                    let e = Expression(c.e.terms.map { Term(y[x.firstIndex(of: $0.variable)!], $0.coefficient) },
                                       constant: c.e.constant)
                    _ = try fresh.add(e, c.r, priority: c.p)
                }
                fresh.updateVariables()
                for k in 0..<n {
                    XCTAssertEqual(try s.value(of: x[k]), try fresh.value(of: y[k]), accuracy: 1e-9, "round \(round) step \(step) x\(k)")
                }
            }
        }
    }

    /// A suggestion shifts the rows of its marker's column, whose coefficients `Tableau.column(_:)` keeps until
    /// a cell changes. Pivots between suggestions (inequalities with uneven coefficients come and go, and the
    /// dual simplex runs after each suggestion) rewrite those coefficients: the tableau must still agree with
    /// the constraints after every step.
    func testSuggestionsFollowPivotsInTheirColumn() throws {
        var rng = SplitMix(state: 5)
        var pivots = 0
        for round in 0..<24 {
            let s = Solver()
            let n = 12
            let x = (0..<n).map { s.addVariable(name: "x\($0)") }
            let edited = [x[0], x[3], x[7]]
            for v in edited { try s.addEditVariable(v, priority: Priority.high) }
            var live: [Constraint] = []
            for step in 0..<60 {
                switch rng.int(5) {
                case 0, 1, 2:
                    try s.suggestValue(Double(rng.int(200) - 100), for: edited[rng.int(edited.count)])
                case 3:
                    let terms = (0..<(2 + rng.int(2))).map { _ in
                        Term(x[rng.int(n)], Double(1 + rng.int(7)) / 2 * (rng.int(2) == 0 ? 1 : -1))
                    }
                    let e = Expression(terms, constant: Double(rng.int(50) - 25))
                    let p = rng.int(3) == 0 ? Priority.required : Double(100 + rng.int(800))
                    if let c = try? s.add(e, rng.int(2) == 0 ? .lessOrEqual : .greaterOrEqual, priority: p) {
                        live.append(c)
                    }
                default:
                    if !live.isEmpty { try s.remove(live.remove(at: rng.int(live.count))) }
                }
                s.updateVariables()
                XCTAssertNil(s._deepConsistencyProblem(), "round \(round) step \(step)")
            }
            pivots += s._statistics.pivots
        }
        XCTAssertGreaterThan(pivots, 300)
    }
}
